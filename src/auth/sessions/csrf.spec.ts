import { csrfProblem } from './csrf';

describe('csrfProblem', () => {
  const session = { csrfToken: 'tok-123', publicOrigin: 'https://warden.example.com' };
  const good = { origin: 'https://warden.example.com', csrfHeader: 'tok-123' };

  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('lets %s through: it changes nothing', (method) => {
    expect(csrfProblem({ method, origin: undefined, csrfHeader: undefined }, session)).toBeNull();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('lets %s through with Origin and token', (method) => {
    expect(csrfProblem({ method, ...good }, session)).toBeNull();
  });

  it('refuses a missing or foreign Origin', () => {
    expect(csrfProblem({ method: 'POST', ...good, origin: undefined }, session)).toMatch(
      /must come from https:\/\/warden\.example\.com \(Origin missing\)/,
    );
    expect(
      csrfProblem({ method: 'POST', ...good, origin: 'https://evil.example' }, session),
    ).toMatch(/Origin differs/);
    expect(csrfProblem({ method: 'POST', ...good, origin: 'null' }, session)).toMatch(/differs/);
  });

  it('refuses a missing or wrong token', () => {
    expect(csrfProblem({ method: 'POST', ...good, csrfHeader: undefined }, session)).toMatch(
      /X-Warden-CSRF/,
    );
    expect(csrfProblem({ method: 'POST', ...good, csrfHeader: 'tok-124' }, session)).toMatch(
      /X-Warden-CSRF/,
    );
    expect(csrfProblem({ method: 'POST', ...good, csrfHeader: 'tok-1234' }, session)).toMatch(
      /X-Warden-CSRF/,
    );
  });
});
