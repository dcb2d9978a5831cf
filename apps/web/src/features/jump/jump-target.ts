/** Only app deep links are followed from /jump (an open-redirect guard). Pure. */
export function jumpTarget(url: string | null): string | null {
  if (!url) return null;
  return /^(opencat|ama):\/\//i.test(url) ? url : null;
}
