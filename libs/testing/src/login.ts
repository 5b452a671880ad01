/** An access token from a running API's real login route. */
export async function login(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login of ${email} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}
