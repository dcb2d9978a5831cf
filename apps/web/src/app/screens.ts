import type { Screen } from '../lib/screen';

/** Every feature's screen.ts (default export: a screen list), gathered at build time. */
const modules = import.meta.glob<{ default: Screen[] }>('../features/*/screen.ts', { eager: true });

export const SCREENS: Screen[] = Object.values(modules).flatMap((m) => m.default);
