import { useCallback, useLayoutEffect, useRef, type CSSProperties, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { lookalikesOf, tagLabel, tagRuns, tagTokens, type TagToken } from '../../shared/qa/tags.js';
import type { KitText } from './messages.js';
import type { TagEditorProps, TaggedTextProps } from './types.js';
import { useKitText } from './useKitText.js';

/**
 * Inline tags (`<1>`…`</1>`, `<2/>`) as the same chips everywhere: read-only in `TaggedText`, atomic
 * in `TagEditor`. The editor is a contentEditable whose chips are `contenteditable=false` elements
 * carrying their placeholder in `data-tag`: the browser edits the text around them (IME included) and
 * never inside one, and the value is read back from the nodes, so it is the `<1>…</1>` notation exactly.
 */

const CHIP_BASE: CSSProperties = {
  display: 'inline-block',
  margin: '0 1px',
  padding: '0 4px',
  fontSize: '0.75em',
  lineHeight: '1.5em',
  verticalAlign: 'baseline',
  fontFamily: 'monospace',
  background: '#d3e4f9',
  color: '#184a90',
  borderWidth: 1,
  borderStyle: 'solid',
  borderColor: '#8abbff',
  userSelect: 'none',
  cursor: 'default',
  whiteSpace: 'nowrap',
};

/** Opening chips point right, closing ones left, standalone ones are round: the pair reads as brackets. */
const chipRadius = (kind: TagToken['kind']) => (kind === 'open' ? '8px 2px 2px 8px' : kind === 'close' ? '2px 8px 8px 2px' : '8px');

const chipTitleKey = (kind: TagToken['kind']): KitText => (kind === 'open' ? 'tagOpen' : kind === 'close' ? 'tagClose' : 'tagStandalone');

/** A chip in React (read-only places). */
export function TagChip({ tag, missing, onClick }: { tag: Pick<TagToken, 'kind' | 'id' | 'text'>; missing?: boolean; onClick?: () => void }): ReactNode {
  const { t } = useKitText();
  const style: CSSProperties = { ...CHIP_BASE, borderRadius: chipRadius(tag.kind), ...(missing ? { background: '#fce8e6', borderColor: '#e76a6e', color: '#ac2f33' } : {}), ...(onClick ? { cursor: 'pointer' } : {}) };
  return (
    <span className="lp-tag-chip" data-tag={tag.text} title={t(chipTitleKey(tag.kind), { id: tag.id })} style={style} onMouseDown={onClick ? (e) => e.preventDefault() : undefined} onClick={onClick}>
      {tagLabel(tag)}
    </span>
  );
}

/** A unit's text with its placeholders as chips (the paragraph view, grids, side panels). */
export function TaggedText({ text, style }: TaggedTextProps): ReactNode {
  return (
    <span style={{ whiteSpace: 'pre-wrap', ...style }}>
      {tagRuns(text).map((r, i) => (r.tag ? <TagChip key={i} tag={r.tag} /> : r.text))}
    </span>
  );
}

// ---- the editor's DOM model -------------------------------------------------------------------

function chipNode(doc: Document, tag: TagToken, title: string): HTMLElement {
  const el = doc.createElement('span');
  el.className = 'lp-tag-chip';
  el.contentEditable = 'false';
  el.setAttribute('contenteditable', 'false');
  el.dataset.tag = tag.text;
  el.title = title;
  el.textContent = tagLabel(tag);
  Object.assign(el.style, { ...CHIP_BASE, borderRadius: chipRadius(tag.kind) });
  return el;
}

const isChip = (n: Node | null | undefined): n is HTMLElement => !!n && n.nodeType === 1 && (n as HTMLElement).dataset?.tag !== undefined;

/** The chip a node sits in, if any (a selection may start inside a chip's label). */
function chipOf(n: Node | null, root: Node): HTMLElement | null {
  for (let at: Node | null = n; at && at !== root; at = at.parentNode) if (isChip(at)) return at;
  return null;
}

/** The notation of the nodes: text as it is, chips as their placeholder, line breaks as `\n`. */
export function serializeNodes(nodes: Iterable<Node>): string {
  let out = '';
  for (const n of nodes) {
    if (n.nodeType === 3) out += (n as Text).data;
    else if (isChip(n)) out += n.dataset.tag;
    else if (n.nodeName === 'BR') out += '\n';
    else if (n.nodeType === 1 || n.nodeType === 11) {
      // Blocks a browser may create on its own start a new line.
      if ((n.nodeName === 'DIV' || n.nodeName === 'P') && out !== '' && !out.endsWith('\n')) out += '\n';
      out += serializeNodes(n.childNodes);
    }
  }
  return out;
}

function nodesOf(doc: Document, value: string, title: (tag: TagToken) => string): Node[] {
  return tagRuns(value).map((r) => (r.tag ? chipNode(doc, r.tag, title(r.tag)) : doc.createTextNode(r.text)));
}

/** What may be inserted next: the source's placeholders in order, each as often as the source has it, less those already in the value. */
export function missingTags(source: string, value: string): TagToken[] {
  const have = new Map<string, number>();
  for (const t of tagTokens(value)) have.set(t.text, (have.get(t.text) ?? 0) + 1);
  const out: TagToken[] = [];
  for (const t of tagTokens(source)) {
    const n = have.get(t.text) ?? 0;
    if (n > 0) have.set(t.text, n - 1);
    else out.push(t);
  }
  return out;
}

/**
 * Pasted text never brings a placeholder of its own: a `<1>` or a look-alike `⟨1⟩` becomes the chip
 * when the source has that tag and it is still missing, and is dropped otherwise.
 */
export function pastedValue(text: string, source: string, value: string): string {
  let missing = missingTags(source, value).map((t) => t.text);
  const pattern = /<\/?\d+\/?>|(?:[⟨〈‹＜«]|&lt;)\s*\/?\s*\d+\s*\/?\s*(?:[⟩〉›＞»]|&gt;)/g;
  return text.replace(pattern, (found) => {
    if (!/^<\/?\d+\/?>$/.test(found) && lookalikesOf(found).length === 0) return found;
    const m = /(\/?)\s*(\d+)\s*(\/?)/.exec(found.replace(/^(?:[<⟨〈‹＜«]|&lt;)/, ''))!;
    const as = m[3] ? `<${m[2]}/>` : m[1] ? `</${m[2]}>` : `<${m[2]}>`;
    const at = missing.indexOf(as);
    if (at < 0) return '';
    missing = [...missing.slice(0, at), ...missing.slice(at + 1)];
    return as;
  });
}

const SHORTCUT_NEXT = (e: ReactKeyboardEvent | KeyboardEvent) => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === ',' || e.code === 'Comma');
/**
 * Ctrl+Alt+digit. Windows reports AltGr as Ctrl+Alt, and layouts type `{`, `[`… with AltGr+digit: such
 * a key gives its character, not the digit, and is left to type it. On layouts whose digits need Shift
 * (AZERTY) the key's position counts, unless AltGr is down.
 */
const shortcutNumber = (e: ReactKeyboardEvent | KeyboardEvent): number | null => {
  if (!e.ctrlKey || !e.altKey || e.shiftKey) return null;
  if (/^\d$/.test(e.key)) return Number(e.key);
  if (e.getModifierState?.('AltGraph')) return null;
  const m = /^(?:Digit|Numpad)(\d)$/.exec(e.code ?? '');
  return m ? Number(m[1]) : null;
};

export function TagEditor({ value, onChange, source = '', onKeyDown, autoFocus, ariaLabel, testId, disabled, minHeight = 64 }: TagEditorProps): ReactNode {
  const { t } = useKitText();
  const ref = useRef<HTMLDivElement>(null);
  const shown = useRef<string | null>(null);
  const title = useCallback((tag: TagToken) => t(chipTitleKey(tag.kind), { id: tag.id }), [t]);

  // The nodes are rebuilt only when the value changes from outside (a reset, a match inserted):
  // while the user types, the value is read from the nodes and they stay as the browser left them.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || shown.current === value) return;
    el.replaceChildren(...nodesOf(el.ownerDocument, value, title));
    shown.current = value;
  }, [value, title]);
  useLayoutEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);

  const emit = () => {
    const el = ref.current!;
    const v = serializeNodes(el.childNodes);
    shown.current = v;
    onChange(v);
  };

  /** The selection's range if it lies in the editor (else a caret at its end), widened to whole chips. */
  const range = (): Range => {
    const el = ref.current!;
    const doc = el.ownerDocument;
    const sel = doc.getSelection();
    let r = sel && sel.rangeCount ? sel.getRangeAt(0) : null;
    if (!r || !el.contains(r.startContainer) || !el.contains(r.endContainer)) {
      r = doc.createRange();
      r.selectNodeContents(el);
      r.collapse(false);
    }
    const startChip = chipOf(r.startContainer, el);
    if (startChip) r.setStartBefore(startChip);
    const endChip = chipOf(r.endContainer, el);
    if (endChip) r.setEndAfter(endChip);
    return r;
  };

  const place = (r: Range) => {
    const sel = ref.current!.ownerDocument.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(r);
  };

  /** Replaces the selection by `notation` (text and placeholders), the caret after it. */
  const insert = (notation: string, wrapWith?: string) => {
    const el = ref.current!;
    const r = range();
    const selected = wrapWith && !r.collapsed ? r.cloneContents() : null;
    r.deleteContents();
    const frag = el.ownerDocument.createDocumentFragment();
    for (const n of nodesOf(el.ownerDocument, notation, title)) frag.appendChild(n);
    if (selected) {
      frag.appendChild(selected);
      for (const n of nodesOf(el.ownerDocument, wrapWith!, title)) frag.appendChild(n);
    }
    const last = frag.lastChild;
    r.insertNode(frag);
    if (last) {
      r.setStartAfter(last);
      r.collapse(true);
    }
    place(r);
    emit();
  };

  /** Inserts a tag of the source; a pair's opening with text selected wraps it when the closing is missing too. */
  const insertTag = (tag: TagToken) => {
    const missing = missingTags(source, serializeNodes(ref.current!.childNodes));
    const close = tag.kind === 'open' ? missing.find((m) => m.kind === 'close' && m.id === tag.id) : undefined;
    insert(tag.text, close && !range().collapsed ? close.text : undefined);
  };

  const keyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const el = ref.current!;
    if (SHORTCUT_NEXT(e)) {
      e.preventDefault();
      const next = missingTags(source, serializeNodes(el.childNodes))[0];
      if (next) insertTag(next);
      return;
    }
    const n = shortcutNumber(e);
    if (n !== null) {
      e.preventDefault();
      const next = missingTags(source, serializeNodes(el.childNodes)).find((m) => m.id === String(n));
      if (next) insertTag(next);
      return;
    }
    if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // A line break as the notation has it (`\n`), not a block the browser would invent.
      e.preventDefault();
      insert('\n');
      return;
    }
    if ((e.key === 'Backspace' || e.key === 'Delete') && !e.ctrlKey && !e.altKey && !e.metaKey) {
      const r = range();
      if (!r.collapsed) {
        e.preventDefault();
        r.deleteContents();
        place(r);
        emit();
        return;
      }
      const chip = e.key === 'Backspace' ? neighbour(r, el, -1) : neighbour(r, el, 1);
      if (chip) {
        // The whole chip goes, never half of its label.
        e.preventDefault();
        const at = el.ownerDocument.createRange();
        at.setStartBefore(chip);
        at.collapse(true);
        chip.remove();
        place(at);
        emit();
        return;
      }
    }
    onKeyDown?.(e);
  };

  const hint = t('tagKeys');
  const missing = source ? missingTags(source, value) : [];
  const sourceTags = tagTokens(source);
  return (
    <div style={{ display: 'grid', gap: 4 }}>
      <div
        ref={ref}
        role="textbox"
        aria-multiline="true"
        aria-label={ariaLabel}
        aria-disabled={disabled || undefined}
        data-testid={testId}
        title={hint}
        contentEditable={!disabled}
        suppressContentEditableWarning
        spellCheck
        tabIndex={0}
        className="lp-tag-editor"
        style={{ minHeight, padding: '6px 8px', border: '1px solid #abb3bf', borderRadius: 3, background: disabled ? '#f6f7f9' : '#fff', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', outline: 'none', lineHeight: 1.6 }}
        onInput={() => emit()}
        onKeyDown={keyDown}
        onCopy={(e) => clip(e, false)}
        onCut={(e) => clip(e, true)}
        onPaste={(e) => {
          e.preventDefault();
          if (disabled) return;
          const ours = e.clipboardData.getData(CLIP_TYPE);
          const text = ours || e.clipboardData.getData('text/plain');
          insert(pastedValue(text.replace(/\r\n?/g, '\n'), source, serializeNodes(ref.current!.childNodes)));
        }}
        onDrop={(e) => e.preventDefault()}
      />
      {sourceTags.length > 0 && (
        <div style={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', fontSize: 12, color: '#5f6b7c' }} title={hint} data-testid={testId ? `${testId}-tags` : undefined}>
          <span style={{ marginRight: 4 }}>{t('tagsOfSource')}</span>
          {sourceTags.map((tag, i) => {
            const isMissing = missing.some((m) => m.text === tag.text);
            return <TagChip key={i} tag={tag} missing={isMissing} onClick={disabled ? undefined : () => insertTag(tag)} />;
          })}
          {missing.length > 0 && <span style={{ marginLeft: 4, color: '#ac2f33' }}>{t('tagMissing')}: {missing.map((m) => tagLabel(m)).join(' ')}</span>}
        </div>
      )}
    </div>
  );

  /** Copy gives the text without tags to other programs, and the notation to our own editors. */
  function clip(e: React.ClipboardEvent<HTMLDivElement>, cut: boolean) {
    const r = range();
    if (r.collapsed) return;
    e.preventDefault();
    const notation = serializeNodes(r.cloneContents().childNodes);
    e.clipboardData.setData('text/plain', tagRuns(notation).filter((x) => !x.tag).map((x) => x.text).join(''));
    e.clipboardData.setData(CLIP_TYPE, notation);
    if (cut && !disabled) {
      r.deleteContents();
      place(r);
      emit();
    }
  }
}

const CLIP_TYPE = 'application/x-linguaport-tagged';

/** The chip right before (-1) or after (1) a collapsed caret, if there is one. */
function neighbour(r: Range, root: HTMLElement, dir: -1 | 1): HTMLElement | null {
  let node: Node | null = r.startContainer;
  let offset = r.startOffset;
  if (node.nodeType === 3) {
    const len = (node as Text).data.length;
    if ((dir < 0 && offset > 0) || (dir > 0 && offset < len)) return null;
    // At the edge of a text node: look at its sibling (climbing out of any wrapper the browser made).
    while (node && node !== root && !(dir < 0 ? node.previousSibling : node.nextSibling)) node = node.parentNode;
    if (!node || node === root) return null;
    const sib = dir < 0 ? node.previousSibling : node.nextSibling;
    return isChip(sib) ? sib : null;
  }
  const sib = dir < 0 ? node.childNodes[offset - 1] : node.childNodes[offset];
  return isChip(sib) ? sib : null;
}
