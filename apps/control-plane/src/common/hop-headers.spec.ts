import { forwardHeaders } from './hop-headers';

describe('the headers the egress proxy sends on', () => {
  it('drops hop-by-hop, Connection-named and Proxy-* headers and sets Host from the URL', () => {
    const out = forwardHeaders(
      {
        host: 'wrong.example',
        connection: 'keep-alive, X-Secret-Hop',
        'keep-alive': 'timeout=5',
        'proxy-authorization': 'Basic abc',
        'proxy-connection': 'keep-alive',
        'x-secret-hop': '1',
        'transfer-encoding': 'chunked',
        te: 'trailers',
        upgrade: 'h2c',
        accept: '*/*',
        'set-cookie': ['a=1', 'b=2'],
      },
      'right.example:8080',
    );
    expect(out).toEqual({
      host: 'right.example:8080',
      accept: '*/*',
      'set-cookie': ['a=1', 'b=2'],
    });
  });
});
