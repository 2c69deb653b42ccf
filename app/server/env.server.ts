import { z } from "zod";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL doit commencer par postgres:// ou postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SEED_DEMO: bool.default(true),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  TRUST_PROXY: bool.default(false),
  // Contact form: accepted submissions per client IP and window, shared by every instance.
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  CONTACT_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  // Up to this many active offers the contact form lists them all; beyond, it searches (issue 11).
  CONTACT_OFFER_SELECT_MAX: z.coerce.number().int().min(0).default(200),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SITE_NAME: z.string().min(1).default("ServeurPro"),
  SITE_EMAIL: z.email().default("contact@example.fr"),
  SITE_PHONE: z.string().min(1).default("+33 1 23 45 67 89"),
  SITE_MAIN_URL: z.url().default("https://www.example.fr"),
  SITE_LEGAL_URL: z.url().default("https://www.example.fr/mentions-legales"),
  SITE_TERMS_URL: z.url().default("https://www.example.fr/cgu"),
  BASE_URL: z.url().default("http://localhost:3000"),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parsed once; a bad variable stops the process with a readable message. */
export function env(): Env {
  if (!cached) {
    const result = envSchema.safeParse(process.env);
    if (!result.success) {
      const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
      throw new Error(`Configuration invalide :\n${lines.join("\n")}`);
    }
    cached = result.data;
  }
  return cached;
}
