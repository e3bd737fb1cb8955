import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Reading our interchange files with another tool: Debian's translate-toolkit. Its package has no
 * `tmx2po` command, so this does what one would (the toolkit's own TMX reader, each unit into a PO
 * file), then counts the PO file with the toolkit's `pocount` and reads its units back with the toolkit's
 * PO reader. Inline markup comes out as the native code the TMX elements carry (`<b>Save</b>`).
 */

// Debian's interpreter: the python3 first on PATH may be another one, without translate-toolkit.
const PYTHON = '/usr/bin/python3';

const TMX2PO = `
import json, sys
from translate.storage import tmx, po
store = tmx.tmxfile(open(sys.argv[1], "rb"), sourcelanguage=sys.argv[3], targetlanguage=sys.argv[4])
out = po.pofile()
for unit in store.units:
    if not unit.source:
        continue
    pu = out.addsourceunit(unit.source)
    pu.target = unit.target
open(sys.argv[2], "wb").write(bytes(out))
back = po.pofile(open(sys.argv[2], "rb"))
print(json.dumps([[u.source, u.target] for u in back.units if not u.isheader()]))
`;

export interface ToolkitReading {
  /** Source and target of each unit, in file order, as the toolkit read them. */
  units: Array<{ source: string; target: string }>;
  /** Units pocount counted in the converted PO file. */
  pocount: number;
}

/** Converts a TMX file to PO with translate-toolkit (source and target languages as the toolkit takes them). */
export function tmx2po(tmxFile: string, sourceLanguage: string, targetLanguage: string): ToolkitReading {
  const dir = mkdtempSync(join(tmpdir(), 'tmx2po-'));
  try {
    const poFile = join(dir, 'out.po');
    const read = JSON.parse(execFileSync(PYTHON, ['-c', TMX2PO, tmxFile, poFile, sourceLanguage, targetLanguage], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as [string, string][];
    const counted = execFileSync('pocount', ['--csv', poFile], { encoding: 'utf8' }).trim().split('\n');
    // CSV: a header line (Filename, ..., Total Message, ...), then one line for the file.
    const header = counted[0]!.split(',').map((s) => s.trim());
    const values = counted[1]!.split(',').map((s) => s.trim());
    const pocount = Number(values[header.findIndex((h) => /^Total Message/i.test(h))]);
    return { units: read.map(([source, target]) => ({ source, target })), pocount };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const XLIFF_READ = `
import json, sys
from translate.storage import xliff
store = xliff.xlifffile(open(sys.argv[1], "rb"))
# Inline codes back in the platform's placeholder notation: g as <n>…</n>, x as <n/>, bx as <n>, ex as </n>.
def text(node):
    if node is None:
        return None
    if isinstance(node, str):
        return node
    kind = type(node).__name__
    inner = "".join(text(c) for c in node.sub)
    n = getattr(node, "id", None)
    if kind == "G":
        return "<%s>%s</%s>" % (n, inner, n)
    if kind == "X":
        return "<%s/>" % n
    if kind == "Bx":
        return "<%s>" % n
    if kind == "Ex":
        return "</%s>" % n
    return inner
units = []
for u in store.units:
    t = u.xmlelement.find("{%s}target" % u.namespace)
    units.append({"id": u.getid(), "source": text(u.rich_source[0]), "target": text(u.rich_target[0]) if u.rich_target else None,
        "state": None if t is None else t.get("state"), "qualifier": None if t is None else t.get("state-qualifier"),
        "approved": u.isapproved(), "fuzzy": u.isfuzzy(), "notes": u.getnotes()})
print(json.dumps({"source": store.getsourcelanguage(), "target": store.gettargetlanguage(), "units": units}))
`;

export interface ToolkitXliffUnit {
  id: string;
  /** The unit's text with its inline codes as placeholders (`<1>`…`</1>`, `<2/>`), as the toolkit's rich text has them. */
  source: string;
  target: string | null;
  state: string | null;
  qualifier: string | null;
  approved: boolean;
  fuzzy: boolean;
  notes: string;
}

/** Reads an XLIFF 1.x file with translate-toolkit's XLIFF reader (the one its `xliff2po` uses). The toolkit has no XLIFF 2 reader. */
export function readXliffWithToolkit(file: string): { source: string; target: string; units: ToolkitXliffUnit[] } {
  return JSON.parse(execFileSync(PYTHON, ['-c', XLIFF_READ, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
}
