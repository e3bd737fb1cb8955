/**
 * Plain text in and out of Apertium's stream format, as `apertium-destxt` and `apertium-retxt` do it
 * (without a process per call): the format's special characters escaped with `\`, runs of blanks other
 * than one space kept as superblanks (`[\t]`), a newline run closing its sentence (`.[][\n\n]`), and the
 * text's end closed the same way (`.[]`). Reading back drops those added sentence ends and opens the
 * superblanks.
 */

const SPECIAL = /[\\[\]^$@/<>{}]/g;

export function toStream(text: string): string {
  const escaped = text.replace(/\0/g, '').replace(SPECIAL, '\\$&');
  return `${escaped.replace(/[ \t\r\n]+/g, (run) => (run === ' ' ? run : run.includes('\n') ? `.[][${run}]` : `[${run}]`))}.[]`;
}

export function fromStream(stream: string): string {
  let out = '';
  for (let i = 0; i < stream.length; i++) {
    const c = stream[i]!;
    if (c === '\\' && i + 1 < stream.length) out += stream[++i];
    else if (c === '.' && stream.startsWith('[]', i + 1)) i += 2;
    else if (c === '[') {
      let j = i + 1;
      for (; j < stream.length && stream[j] !== ']'; j++) {
        if (stream[j] === '\\' && j + 1 < stream.length) j++;
        out += stream[j];
      }
      i = j;
    } else if (c !== ']') out += c;
  }
  return out;
}
