import { z } from "zod";
import { newPasswordSchema } from "./credentials";
import { AUTH_LIMITS } from "~/lib/limits";

// The forms of `Mot de passe oublié ?` (issue 20), read by the actions only.

/** 32 random bytes, base64url: what a link carries. Anything else is not looked up. */
export const resetTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The request form: an e-mail, checked for shape only (the answer never says more). */
export const forgotPasswordSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Veuillez saisir votre adresse e-mail.")
    .max(AUTH_LIMITS.email, "L'adresse e-mail n'est pas valide.")
    .pipe(z.email("L'adresse e-mail n'est pas valide.")),
});

/** The new password, twice, with the link's token. The policy (common, e-mail) is checked after. */
export const resetPasswordSchema = z
  .object({
    token: z.string().max(100),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(AUTH_LIMITS.passwordMax),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Les deux mots de passe ne correspondent pas.",
  });
