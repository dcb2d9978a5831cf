/** A number grouped as the console language writes it (`zh_CN`, `en_US`…): 200000 → "200,000". */
export const formatNumber = (n: number, language: string) => n.toLocaleString(language.replace('_', '-'));
