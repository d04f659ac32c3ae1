/**
 * A minimal browser for the dashboard sign-in flow (plain fetch, no Chromium): it keeps cookies (by name; every server of the flow is
 * on localhost, and cookies do not tell ports apart), follows redirects one by one, and submits
 * HTML forms. Only loopback URLs are fetched.
 */
export class LoginBrowser {
  readonly cookies = new Map<string, string>();
  /** Every URL the browser was sent to, in order. */
  readonly visited: string[] = [];
  /** Every Set-Cookie line received, in order. */
  readonly setCookies: string[] = [];

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const removed = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (removed) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request, no redirect followed. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { hostname } = new URL(url);
    if (!['localhost', '127.0.0.1'].includes(hostname)) throw new Error(`the test browser stays on loopback, not ${hostname}`);
    this.visited.push(url);
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    this.remember(response);
    return response;
  }

  /** Goes to `url` and follows redirects (at most 10); returns the last response and its URL. */
  async navigate(url: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let response = await this.fetch(url, init);
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url };
      url = new URL(location, url).href;
      response = await this.fetch(url);
    }
    throw new Error('too many redirects');
  }

  /** Fills and submits the page's first form (method POST). */
  async submitForm(pageUrl: string, html: string, fields: Record<string, string>) {
    const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1];
    if (!action) throw new Error('the page has no form');
    return this.navigate(new URL(action.replace(/&amp;/g, '&'), pageUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}
