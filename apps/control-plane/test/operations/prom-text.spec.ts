import { parsePrometheusText } from './prom-text';

describe('the strict Prometheus text parser the metrics test reads with', () => {
  it('reads families, their samples and labels', () => {
    const text = [
      '# HELP a_total Things.',
      '# TYPE a_total counter',
      'a_total{code="x",why="say \\"hi\\""} 3',
      '# TYPE h histogram',
      'h_bucket{le="+Inf"} 2',
      'h_sum 0.5',
      'h_count 2',
      '',
    ].join('\n');
    const families = parsePrometheusText(text);
    expect(families.get('a_total')).toEqual({
      type: 'counter',
      help: 'Things.',
      samples: [{ name: 'a_total', labels: { code: 'x', why: 'say "hi"' }, value: 3 }],
    });
    expect(families.get('h')?.samples.map((s) => s.name)).toEqual(['h_bucket', 'h_sum', 'h_count']);
  });

  it.each([
    ['a sample of no declared family', 'b 1'],
    ['bad labels', '# TYPE b gauge\nb{x=1} 1'],
    ['not a number', '# TYPE b gauge\nb one'],
    ['unknown type', '# TYPE b meter'],
  ])('refuses %s', (why, text) => {
    expect(() => parsePrometheusText(text)).toThrow(why);
  });
});
