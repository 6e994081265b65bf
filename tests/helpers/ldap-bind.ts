/** Whether `dn` binds with `password` at `url` (a fresh connection each time, closed after). */
import { Client } from 'ldapts';

export async function binds(url: string, dn: string, password: string): Promise<boolean> {
  const client = new Client({ url, timeout: 5000, connectTimeout: 5000 });
  try {
    await client.bind(dn, password);
    return true;
  } catch {
    return false;
  } finally {
    await client.unbind().catch(() => {});
  }
}
