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
  CLI's `-u`): no `*`/`#` marks, since APy's `markUnknown=no` strips `*` but leaves `#`.
"""
import asyncio
import shlex
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
        return parsed
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


tornado.httpserver.HTTPServer.bind = _bind_loopback
tornado.httpserver.HTTPServer.start = _start_single
translation.parse_mode_file = _parse_wblank_mode_file
translation.FlushingPipeline.translate = _translate
# The translate handler imported the name directly.
import apertium_apy.handlers.translate as _translate_handler  # noqa: E402
_translate_handler.parse_mode_file = _parse_wblank_mode_file

if __name__ == '__main__':
    sys.argv[0] = 'apertium-apy'
    sys.exit(apy.main())
