/**
 * A strict parser of Prometheus' text exposition format (0.0.4): every line is a HELP, a TYPE,
 * a blank or a sample of a declared family, with well-formed labels and a number; anything
 * else throws naming the line. (prom-client ships no parser.)
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(\\{(.*)\\})? (\\S+)( -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"(,|$)/;
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const help = new Map<string, string>();
  text.split('\n').forEach((line, i) => {
    const fail = (why: string): never => {
      throw new Error(`line ${i + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line === '') return;
    const meta = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`).exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (kind === 'HELP') help.set(name, rest);
      else {
        if (!(rest in SUFFIXES)) fail('unknown type');
        if (families.has(name)) fail('a second TYPE');
        families.set(name, {
          type: rest as Family['type'],
          help: help.get(name) ?? '',
          samples: [],
        });
      }
      return;
    }
    if (line.startsWith('#')) return;
    const m = SAMPLE.exec(line) ?? fail('not a sample');
    const [, name, , body, raw] = m;
    const family =
      [...families.entries()].find(([f, fam]) =>
        SUFFIXES[fam.type].some((s) => name === `${f}${s}`),
      ) ?? fail('a sample of no declared family');
    const labels: Record<string, string> = {};
    let rest = body ?? '';
    while (rest.length > 0) {
      const l = LABEL.exec(rest) ?? fail('bad labels');
      labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
      rest = rest.slice(l[0].length);
    }
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    if (raw !== 'NaN' && Number.isNaN(value)) fail('not a number');
    family[1].samples.push({ name, labels, value });
  });
  return families;
}
