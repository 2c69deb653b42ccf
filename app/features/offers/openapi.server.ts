import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  apiOfferDetailSchema,
  apiOfferListSchema,
  apiProblemSchema,
  offerListQuerySchema,
  offerSlugSchema,
} from "./offer-api-schema";
import { API_ALLOWED_HEADERS, API_METHODS, API_PREFLIGHT_MAX_AGE } from "./api-response.server";

// GET /api/openapi.json (issue 30): the API's OpenAPI 3.1 document, generated from the zod schemas
// that check its parameters and describe its answers (app/lib/offer-api-schema.ts).

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: apiProblemSchema } },
});

const CORS_HEADER = {
  "Access-Control-Allow-Origin": { schema: { type: "string" as const, example: "*" } },
  ETag: { schema: { type: "string" as const }, description: "Réponse 304 avec If-None-Match." },
};

const text = (example: string) => ({ schema: { type: "string" as const, example } });
/** The CORS preflight of an address: any other method than these three is a 405 with Allow. */
const preflight = (path: string, request?: { params: z.ZodObject }) => ({
  method: "options" as const,
  path,
  summary: "Pré-vérification CORS",
  description: `Réponse d'un navigateur avant une lecture d'un autre site. Toute méthode autre que ${API_METHODS} reçoit 405 avec l'en-tête Allow.`,
  request,
  responses: {
    204: {
      description: "Lecture autorisée depuis tout site.",
      headers: {
        "Access-Control-Allow-Origin": text("*"),
        "Access-Control-Allow-Methods": text(API_METHODS),
        "Access-Control-Allow-Headers": text(API_ALLOWED_HEADERS),
        "Access-Control-Max-Age": {
          schema: { type: "integer" as const, example: API_PREFLIGHT_MAX_AGE },
        },
      },
    },
  },
});

/** A JSON answer of the API, and the answers every read shares. */
const answer = (description: string, schema: z.ZodType) => ({
  200: { description, headers: CORS_HEADER, content: { "application/json": { schema } } },
  304: { description: "Inchangé depuis l'ETag envoyé." },
  429: problem("Trop de requêtes de ce client : voir Retry-After."),
  503: problem("Service momentanément indisponible : voir Retry-After."),
});

const slugParams = z.object({ slug: offerSlugSchema });

function buildDocument(siteName: string, baseUrl: string) {
  const registry = new OpenAPIRegistry();
  registry.registerPath({
    method: "get",
    path: "/api/offers",
    summary: "Offres actives",
    description:
      "Les offres de la page /offers, avec les mêmes paramètres (filtres, tri, page de 24) : la même adresse donne les mêmes offres dans le même ordre.",
    request: { query: offerListQuerySchema },
    responses: {
      ...answer("Une page d'offres.", apiOfferListSchema),
      400: problem("Paramètre invalide, inconnu ou répété."),
    },
  });
  registry.registerPath(preflight("/api/offers"));
  registry.registerPath({
    method: "get",
    path: "/api/offers/{slug}",
    summary: "Une offre active",
    request: { params: slugParams },
    responses: {
      ...answer("L'offre, avec sa description.", apiOfferDetailSchema),
      404: problem("Offre inconnue ou qui n'est plus disponible."),
    },
  });
  registry.registerPath(preflight("/api/offers/{slug}", { params: slugParams }));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: `${siteName} — catalogue`,
      version: "1.0.0",
      description:
        "Le catalogue de serveurs dédiés et de location avec option d'achat (LOA), en lecture. Prix en euros, HT et TTC.",
    },
    servers: [{ url: baseUrl }],
  });
}

let cached: { key: string; document: ReturnType<typeof buildDocument> } | undefined;

/** The document for this site's name and address (built once). */
export function openApiDocument(siteName: string, baseUrl: string) {
  const key = `${siteName}\n${baseUrl}`;
  if (cached?.key !== key) cached = { key, document: buildDocument(siteName, baseUrl) };
  return cached.document;
}
