/**
 * Sandbox of frames showing admin-chosen pages (chat links, an About page given as a URL):
 * the page may run its scripts, keep its own storage, submit forms and open pop-ups, but may
 * not navigate the console away (no allow-top-navigation) or open dialogs over it.
 */
export const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';
