import { z } from "zod";

// Zod compiles object parsers with `new Function` when it can; in the browser that probe alone
// is a CSP violation (script-src has no 'unsafe-eval'), which Chrome reports as a page issue.
// Every page imports this through root.tsx before any schema parses.
z.config({ jitless: true });
