import { bandLayout, fromVtt, MIN_BAND_LINES, toVtt, wrap } from './captions';

describe('the caption band', () => {
  it('wraps on spaces and breaks a word longer than a line', () => {
    expect(wrap('Submitting the form with an empty email', 16)).toEqual([
      'Submitting the',
      'form with an',
      'empty email',
    ]);
    expect(wrap('see https://example.com/a/very/long/path', 12)).toEqual([
      'see',
      'https://exam',
      'ple.com/a/ve',
      'ry/long/path',
    ]);
  });

  it('holds three lines, grows for a longer caption, and keeps an even height', () => {
    const short = bandLayout(1024, ['Clicking Save']);
    expect(short.lines).toBe(MIN_BAND_LINES);
    expect(short.charsPerLine).toBeGreaterThan(60);
    const long = bandLayout(1024, ['Clicking Save', 'word '.repeat(60).trim()]);
    expect(long.lines).toBe(wrap('word '.repeat(60).trim(), long.charsPerLine).length);
    expect(long.lines).toBeGreaterThan(MIN_BAND_LINES);
    expect(long.height).toBeGreaterThan(short.height);
    expect([short.height % 2, long.height % 2]).toEqual([0, 0]);
  });
});

describe('the .vtt', () => {
  const captions = [
    { at: 0.25, text: 'Opening <b> & "quotes" --> C:\\new $(x)' },
    { at: 61.5, text: 'Done' },
  ];

  it('writes a cue per caption until the next one, the last until the end, escaped', () => {
    expect(toVtt(captions, 3725.0004)).toBe(
      [
        'WEBVTT',
        '',
        '1',
        '00:00:00.250 --> 00:01:01.500',
        'Opening &lt;b&gt; &amp; "quotes" --&gt; C:\\new $(x)',
        '',
        '2',
        '00:01:01.500 --> 01:02:05.000',
        'Done',
        '',
      ].join('\n'),
    );
  });

  it('reads back what it wrote', () => {
    expect(fromVtt(toVtt(captions, 70))).toEqual(captions);
  });
});
