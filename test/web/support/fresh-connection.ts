import { Agent, fetch as fetchVia } from 'undici';

/**
 * A request on a connection of its own, its body read: a server restarted on a port is not
 * asked over a kept-alive socket of the one stopped there.
 */
export async function onNewConnection(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; setCookie: string | null }> {
  const dispatcher = new Agent();
  try {
    const r = await fetchVia(url, { ...o, redirect: 'manual', dispatcher });
    await r.arrayBuffer();
    return { status: r.status, setCookie: r.headers.get('set-cookie') };
  } finally {
    await dispatcher.close();
  }
}
