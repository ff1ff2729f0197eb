import { destinationOrigin, grantOrigin, isLoopback } from './origin';

describe('where a secret may go', () => {
  it.each([
    ['https://sapgui-host.internal:8443', 'https://sapgui-host.internal:8443'],
    ['https://SAPGUI-Host.internal:8443/path/', 'https://sapgui-host.internal:8443'],
    ['https://api.anthropic.com', 'https://api.anthropic.com'],
    ['https://api.openai.com:443/v1', 'https://api.openai.com'],
    ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434'],
    ['http://[::1]:8000', 'http://[::1]:8000'],
    ['http://localhost:8000', 'http://localhost:8000'],
  ])('%s goes to the origin %s', (url, origin) => {
    expect(destinationOrigin(url)).toEqual({ origin });
  });

  it.each([
    ['http://models.internal:8000/v1', /only on loopback/],
    ['http://10.0.0.5', /only on loopback/],
    ['http://127.0.0.1.nip.io', /only on loopback/],
    ['ftp://127.0.0.1', /not https/],
    ['https://user:pw@host.internal', /user or password/],
    ['not a url', /not a URL/],
  ])('%s is refused', (url, problem) => {
    const checked = destinationOrigin(url);
    expect('problem' in checked && checked.problem).toMatch(problem);
  });

  it('knows loopback', () => {
    expect(
      ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'a.localhost'].map(isLoopback),
    ).toEqual([true, true, true, true, true, true]);
    expect(['128.0.0.1', '0.0.0.0', 'localhost.example', '::2'].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('a grant names an origin, nothing more', () => {
    expect(grantOrigin('https://host.internal:8443/')).toBe('https://host.internal:8443');
    expect(() => grantOrigin('https://host.internal:8443/v1')).toThrow(/must be an origin/);
    expect(() => grantOrigin('https://host.internal?x=1')).toThrow(/must be an origin/);
    expect(() => grantOrigin('http://host.internal')).toThrow(/only on loopback/);
  });
});
