declare const __APP_VERSION__: string;
declare const __APP_COMMIT__: string;

/** The version this bundle was built as (`VITE_APP_VERSION`/`ONE_HUB_VERSION` at build time). */
export const BUILD_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'v0.0.0';

/** The git commit this bundle was built from ('' outside a checkout). */
export const BUILD_COMMIT: string = typeof __APP_COMMIT__ === 'string' ? __APP_COMMIT__ : '';
/** The footer's line: "v1.2.3 (abc1234)". */
export const buildLabel = (version = BUILD_VERSION, commit = BUILD_COMMIT) => (commit ? `${version} (${commit})` : version);

const PLACEHOLDERS = new Set(['', 'v0.0.0', '0.0.0']);

/** A new-version notice is due when both versions are real and differ. */
export function isNewVersion(server: string | undefined | null, build: string = BUILD_VERSION): boolean {
  if (!server || PLACEHOLDERS.has(server) || PLACEHOLDERS.has(build)) return false;
  return server !== build;
}
