/** 0 (empty) … 4 (strong): length plus variety of character classes. Pure. */
export function passwordStrength(pw: string): number {
  if (!pw) return 0;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(pw)).length;
  let score = pw.length >= 8 ? 1 : 0;
  if (pw.length >= 12) score += 1;
  score += classes >= 3 ? 2 : classes === 2 ? 1 : 0;
  return Math.max(1, Math.min(4, score));
}
