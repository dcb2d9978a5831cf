import { randomUUID } from 'node:crypto';

/** A multipart/form-data body of text fields (providers whose image APIs take forms). */
export function multipartForm(fields: Record<string, string | number | undefined>): { body: Buffer; contentType: string } {
  const boundary = `----onehub${randomUUID().replaceAll('-', '')}`;
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}
