"""Start Apertium APy bound to 127.0.0.1 only, with the CLI's tag handling.

Two patches applied before APy's main() runs:
- Binding: APy has no host option and binds every interface. tornado's HTTPServer.bind is
  replaced so the socket is loopback-only IPv4 and, with `-p 0`, on a free port the kernel
  picks; the bound port is printed as `APY_LISTENING <port>` for the parent to read (no race
  between finding a free port and binding it).
- Tags: APy runs a pair's raw mode file behind apertium-deshtml, which drifts inline tags onto
  the wrong words (`The <b>red</b> car` -> `El <b>coche</b> rojo`). The `apertium` CLI instead
  extracts with Transfuse (tf-extract, word-bound blanks), runs the mode through
  `apertium-wblank-mode`, and re-injects (tf-inject): `El coche <b>rojo</b>`. We do the same
  for `format=html`; `format=txt` keeps APy's own path. The generator runs with `-n` (the
  CLI's `-u`): no `*`/`#`/`@` marks. APy's own `markUnknown=no` instead deletes every `*`
  before a word in the output with a regex, the user's own too (`3*4 = 12` came back as
  `34 = 12`); since the engine adds no marks, that stripping is switched off.
- Parent death: with `LP_PARENT_PID` set, a thread watches the parent; when it is gone (the
  server was killed with SIGKILL and could not stop us), it kills this whole process group, the
  translation pipelines included.
"""
import asyncio
import os
import shlex
import signal
import threading
import time
import socket
import subprocess
import sys
from secrets import token_urlsafe

import tornado.httpserver
from tornado.netutil import bind_sockets

from apertium_apy import apy
from apertium_apy.utils import translation


def _bind_loopback(self, port, address=None, family=socket.AF_UNSPEC, backlog=128, reuse_port=False):
    sockets = bind_sockets(port, address='127.0.0.1', family=socket.AF_INET, backlog=backlog)
    self.add_sockets(sockets)
    sys.stdout.write('APY_LISTENING %d\n' % sockets[0].getsockname()[1])
    sys.stdout.flush()


def _start_single(self, num_processes=1, max_restarts=None):
    # The sockets were added in bind(); one process, restarts are the parent's job.
    if num_processes != 1:
        raise SystemExit('apy-launcher runs one process; use -i/-n for more pipelines')


_raw_parse_mode_file = translation.parse_mode_file


def _parse_wblank_mode_file(mode_path):
    parsed = _raw_parse_mode_file(mode_path)
    if not parsed.do_flush:
        # The one-shot `apertium` command of a non-flushing pair: `-u`, no marks either.
        return translation.ParsedModes(False, [cmd[:1] + ['-u'] + cmd[1:] for cmd in parsed.commands])
    mode = subprocess.run(['apertium-wblank-mode', '-z', mode_path], check=True,
                          capture_output=True, text=True).stdout.strip()
    commands = []
    for cmd in mode.split('|'):
        cmd = cmd.replace('$1', '-n').replace('$2', '')
        commands.append(shlex.split(cmd))
    return translation.ParsedModes(True, commands)


async def _translate_transfuse(text, pipeline, timeout):
    # One Transfuse document per request: never split it (a split could cut a tag in half).
    extracted = subprocess.run(['tf-extract', '-f', 'html-fragment'], input=text.encode('utf-8'),
                               capture_output=True, check=True).stdout
    async with pipeline.lock:
        nonce = ('[/NONCE:' + token_urlsafe(8) + ']').encode('utf-8')
        pipeline.inpipe.stdin.write(extracted + b'\0' + nonce + b'\0')
        output = await asyncio.wait_for(pipeline.outpipe.stdout.read_until(nonce + b'\0'), timeout=timeout)
    output = output.replace(nonce + b'\0', b'')
    injected = subprocess.run(['tf-inject', '-f', 'html-fragment'], input=output,
                              capture_output=True, check=True).stdout
    return injected.decode('utf-8')


_raw_translate = translation.FlushingPipeline.translate


async def _translate(self, to_translate, nosplit=False, deformat=True, reformat=True):
    if deformat == 'apertium-deshtml':
        with self.use():
            return await _translate_transfuse(to_translate, self, self.timeout)
    return await _raw_translate(self, to_translate, nosplit, deformat, reformat)


def _keep_marks_as_they_are(self, mark_unknown, pair, translated):
    # The pipeline already ran without marks (`-n`/`-u`): every `*` left is the user's.
    return translated


def _watch_parent(parent):
    while True:
        if os.getppid() != parent:
            os.killpg(os.getpgrp(), signal.SIGKILL)
        time.sleep(0.2)


tornado.httpserver.HTTPServer.bind = _bind_loopback
tornado.httpserver.HTTPServer.start = _start_single
translation.parse_mode_file = _parse_wblank_mode_file
translation.FlushingPipeline.translate = _translate
# The translate handler imported the name directly.
import apertium_apy.handlers.translate as _translate_handler  # noqa: E402
_translate_handler.parse_mode_file = _parse_wblank_mode_file
_translate_handler.TranslateHandler.maybe_strip_marks = _keep_marks_as_they_are

if __name__ == '__main__':
    if os.environ.get('LP_PARENT_PID'):
        threading.Thread(target=_watch_parent, args=(int(os.environ['LP_PARENT_PID']),), daemon=True).start()
    sys.argv[0] = 'apertium-apy'
    sys.exit(apy.main())
