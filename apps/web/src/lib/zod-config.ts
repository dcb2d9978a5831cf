import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may; the console's CSP forbids eval, so
// its probe alone raised a CSP violation on every page. The interpreted path is fast enough here.
z.config({ jitless: true });
