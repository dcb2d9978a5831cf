/** The text file of new codes (console-screens §3.5): `{name}.txt`, one key per line. */
export function codesFile(name: string, keys: readonly string[]): { fileName: string; text: string } {
  const safe = name.trim().replace(/[\\/:*?"<>|]+/g, '_') || 'redemption';
  return { fileName: `${safe}.txt`, text: `${keys.join('\n')}\n` };
}

export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
