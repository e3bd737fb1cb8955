// Figures for the text tools: language detection per short string, and sentence splitting of
// 1 MB of text with its memory, sampled while iterating (the split must stay flat).
import { readFileSync } from 'node:fs';
import { languageDetector, splitSentences } from '../../core/server/src/translation/text-tools.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n: number) => (n / 1e6).toFixed(1);

const shorts = ['Hello, how are you?', 'Hola, ¿cómo estás?', 'Bonjour à tous', 'Bon dia a tothom', '你好，世界', 'Good morning everyone', 'Buenas noches amigos', 'Merci beaucoup', 'ok', 'Where is the station?'];
const enabled = ['en', 'es', 'fr', 'ca', 'zh-CN'];
let t = performance.now();
const detector = await languageDetector();
console.log(`language detector load: ${Math.round(performance.now() - t)} ms`);
const times: number[] = [];
for (let i = 0; i < 10_000; i++) {
  const s = performance.now();
  detector.detect(shorts[i % shorts.length], enabled);
  times.push(performance.now() - s);
}
console.log(`detectLanguage, short string: median ${(median(times) * 1000).toFixed(1)} µs over 10,000`);

// Accuracy on the held-out set the detection test keeps: long (40+ characters) and short (10-20).
const heldOut = JSON.parse(readFileSync(new URL('../../core/server/test/fixtures/detection/sentences.json', import.meta.url), 'utf8')) as Record<string, Record<'long' | 'short', string[]>>;
for (const set of ['long', 'short'] as const) {
  for (const engines of [[], enabled]) {
    let right = 0;
    let n = 0;
    for (const [lang, sets] of Object.entries(heldOut)) {
      for (const s of sets[set]) {
        n++;
        if (detector.detect(s, engines).language.split('-')[0] === lang) right++;
      }
    }
    const label = set === 'long' ? '40+ characters' : '10-20 characters';
    console.log(`detection accuracy, ${label}, ${Object.keys(heldOut).length} languages, engines ${engines.length ? engines.join(' ') : 'none'}: ${((100 * right) / n).toFixed(1)}% (${right} of ${n})`);
  }
}

const base = 'Dr. Smith arrived on Jan. 5 with Mr. Jones. They talked about cars, e.g. fast ones! Was it fun? 今天天气很好。我们去公园吧！ ';
for (const size of [1e6, 4e6]) {
  const text = base.repeat(Math.ceil(size / base.length)).slice(0, size);
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const samples: string[] = [];
  let n = 0;
  t = performance.now();
  for (const span of splitSentences(text, 'en')) {
    n += span.end > span.start ? 1 : 0;
    if (n % 5000 === 0) {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
      if (n % 20000 === 0) samples.push(mb(m.heapUsed - before.heapUsed));
    }
  }
  const ms = performance.now() - t;
  console.log(
    `splitSentences ${mb(size)} MB: ${n.toLocaleString('en-US')} sentences in ${Math.round(ms)} ms; ` +
      `peak RSS +${mb(peakRss - before.rss)} MB, peak heap +${mb(peakHeap - before.heapUsed)} MB; heap growth while iterating (MB): ${samples.join(' ')}`,
  );
}
