import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeFiles } from './support/imports.js';

// Engine capabilities are declared by plugins and read from a registry (issue 24): the kernel and the
// SDK must not list them again. This test names every place in core/ and plugin-sdk/ that holds the
// capability names as a closed list (a union of their literals, an array, a z.enum) or picks by one
// (`capability === 'speech'`, `case 'ocr'`). A declaration's own `id: 'speech'` is not a list, nor are
// the SDK's typed services over its declarations (`ctx.engines.speech`).

const ROOT = join(import.meta.dirname, '..', '..');
/** The capabilities that were once a closed list; a plugin's new one (`tts`) is checked the same way. */
const NAMES = new Set(['translate', 'ocr', 'speech', 'speaker', 'tts']);

const literal = (node: ts.Node): string | null => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isLiteralTypeNode(node) ? literal(node.literal) : null);
const names = (nodes: readonly ts.Node[]) => new Set(nodes.map(literal).filter((v): v is string => v !== null && NAMES.has(v)));

/** Every closed list or pick by capability name in `text`, as `line: what`. */
export function closedCapabilityLists(path: string, text: string): string[] {
  if (![...NAMES].some((n) => text.includes(`'${n}'`) || text.includes(`"${n}"`))) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const at = (node: ts.Node, what: string) => out.push(`${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isUnionTypeNode(node) && names(node.types).size >= 2) at(node, `union ${node.getText(source)}`);
    else if (ts.isArrayLiteralExpression(node) && names(node.elements).size >= 2) at(node, `array ${node.getText(source).slice(0, 80)}`);
    else if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(node.operatorToken.kind)) {
      const [side, other] = literal(node.right) ? [node.right, node.left] : [node.left, node.right];
      const name = literal(side);
      if (name && NAMES.has(name) && /capabilit/i.test(other.getText(source))) at(node, `pick ${node.getText(source)}`);
    } else if (ts.isCaseClause(node)) {
      const name = literal(node.expression);
      const owner = node.parent.parent as ts.SwitchStatement;
      if (name && NAMES.has(name) && /capabilit/i.test(owner.expression.getText(source))) at(node, `case '${name}' of ${owner.expression.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('engine capabilities are an open list', () => {
  it('finds the closed shapes it looks for', () => {
    const found = closedCapabilityLists(
      'x.ts',
      [
        "export type C = 'translate' | 'ocr' | 'speech' | 'speaker';",
        "if (!['translate', 'ocr', 'speech', 'speaker'].includes(def.capability)) throw new Error('');",
        "const s = z.enum(['speech', 'ocr']);",
        "const a = def.capability === 'speech' ? 1 : 2;",
        "switch (capability) { case 'ocr': break; }",
        // Not lists: a declaration's own id, one name in a comment or a message, a union of other words.
        "export const speechCapability = { id: 'speech', routing: 'language' };",
        "type R = 'pairs' | 'language';",
      ].join('\n'),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('leaves none in core/ or plugin-sdk/', () => {
    const offenders: string[] = [];
    for (const dir of [join(ROOT, 'core'), join(ROOT, 'plugin-sdk')]) {
      for (const abs of codeFiles(dir)) {
        const rel = relative(ROOT, abs).split(sep).join('/');
        // Tests may name capabilities as they please: they check behaviour, not the open list.
        if (/\/test\//.test(`/${rel}`)) continue;
        for (const hit of closedCapabilityLists(abs, readFileSync(abs, 'utf8'))) offenders.push(`${rel}:${hit}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
