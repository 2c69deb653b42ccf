import { z } from "zod";
import { AUTH_LIMITS } from "~/lib/limits";

/** E-mail as stored: trimmed and lower-cased, so 'Admin@Example.fr' and 'admin@example.fr' are one account. */
export const emailSchema = z
  .string({ error: "L'adresse e-mail est obligatoire." })
  .trim()
  .toLowerCase()
  .min(1, "L'adresse e-mail est obligatoire.")
  .max(AUTH_LIMITS.email, `L'adresse e-mail ne doit pas dépasser ${AUTH_LIMITS.email} caractères.`)
  .pipe(z.email("L'adresse e-mail n'est pas valide."));

/** A new administrator password (admin:create, ADMIN_PASSWORD). Never trimmed. */
export const newPasswordSchema = z
  .string({ error: "Le mot de passe est obligatoire." })
  .min(
    AUTH_LIMITS.passwordMin,
    `Le mot de passe doit contenir au moins ${AUTH_LIMITS.passwordMin} caractères.`,
  )
  .max(
    AUTH_LIMITS.passwordMax,
    `Le mot de passe ne doit pas dépasser ${AUTH_LIMITS.passwordMax} caractères.`,
  );

export const adminCredentialsSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
});

export type AdminCredentials = z.infer<typeof adminCredentialsSchema>;

/** The sign-in form as posted. Lengths are capped; the rest is checked against the database. */
export const signInFormSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(AUTH_LIMITS.email)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/),
  password: z.string().min(1).max(AUTH_LIMITS.passwordMax),
  redirectTo: z.string().max(500).optional(),
});

/** The account page's password change. The new password follows the rules of a new administrator. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string()
      .min(1, "Veuillez saisir votre mot de passe actuel.")
      .max(AUTH_LIMITS.passwordMax, "Le mot de passe actuel est incorrect."),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Les deux nouveaux mots de passe ne correspondent pas.",
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ["newPassword"],
    message: "Le nouveau mot de passe doit être différent de l'actuel.",
  });

/** First readable message of a failed parse, one line per issue. */
export function issuesToText(error: z.ZodError): string {
  return error.issues.map((issue) => issue.message).join("\n");
}
