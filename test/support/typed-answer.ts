/** What the typed client (@warden/client) answered, as data or as an error that says why not. */

/** The data of a typed client's answer, or an error quoting the API's status and body. */
export function dataOf<T>(
  what: string,
  answer: { data?: T; error?: unknown; response: Response },
): T {
  if (answer.data === undefined) {
    const body = JSON.stringify(answer.error).slice(0, 500);
    throw new Error(`${what}: ${answer.response.status} ${body}`);
  }
  return answer.data;
}
