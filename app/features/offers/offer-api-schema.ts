import { z } from "zod";
import { OFFER_TYPES } from "~/lib/domain";
import {
  DELIVERY_STATES,
  OFFER_FIELD_NAMES,
  OFFER_FIELDS,
  type OfferField,
  type OfferFieldSpec,
  type OfferFields,
} from "~/lib/offer-fields";
import {
  LISTING_PARAMS,
  MAX_PAGE,
  MAX_PRICE_FILTER,
  MINIMUM_FILTERS,
  MAX_SEARCH_LENGTH,
  OFFER_SORTS,
  parseOfferFilters,
  REFERENCE_CODE,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";

// The catalogue's API (issue 30): the listing's query parameters, checked strictly at the boundary
// (a wrong value is a French 400, where the page clears it), then read by the listing's own reader
// (parseOfferFilters), so that the API and the page list the same offers for the same address. The
// OpenAPI document is generated from these schemas (app/features/offers/openapi.server.ts). Server only: no
// browser script imports zod.

const whole = (name: string, max: number, description: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} : un nombre entier positif est attendu.`)
    .refine((v) => Number(v) <= max, `${name} : ${max} au plus.`)
    .optional()
    .meta({ description });

/** The "at least" filters' parameters, one per line of MINIMUM_FILTERS. */
const minimumParams = Object.fromEntries(
  MINIMUM_FILTERS.map(({ param, max, description }) => [param, whole(param, max, description)]),
) as { [F in (typeof MINIMUM_FILTERS)[number] as F["param"]]: ReturnType<typeof whole> };

/** GET /api/offers: the listing's parameters, the same names (an empty value is no filter). */
export const offerListQuerySchema = z.strictObject(
  {
    q: z
      .string()
      .max(MAX_SEARCH_LENGTH, `q : ${MAX_SEARCH_LENGTH} caractères au plus.`)
      .optional()
      .meta({
        description:
          "Recherche comme sur le site : chaque mot dans le titre, la référence, les caractéristiques ou la description, sans accents ni casse, avec les synonymes ; par pertinence dans l'ordre par défaut.",
      }),
    type: z
      .enum(OFFER_TYPES, { error: `type : ${OFFER_TYPES.join(" ou ")} est attendu.` })
      .optional()
      .meta({ description: "Type d'offre : serveur dédié ou location LOA." }),
    min: whole("min", MAX_PRICE_FILTER, "Prix mensuel HT minimum, en euros."),
    max: whole("max", MAX_PRICE_FILTER, "Prix mensuel HT maximum, en euros."),
    ...minimumParams,
    engagement: z
      .enum(["yes", "no"], { error: "engagement : yes ou no est attendu." })
      .optional()
      .meta({ description: "Avec (yes) ou sans (no) engagement." }),
    location: z
      .string()
      .regex(REFERENCE_CODE, "location : le code d'un datacenter est attendu (ex. paris).")
      .optional()
      .meta({ description: "Code du datacenter." }),
    available: z
      .literal("1", { error: "available : 1 est attendu." })
      .optional()
      .meta({ description: "1 : seulement les offres livrables immédiatement (en stock)." }),
    sort: z
      .enum(OFFER_SORTS, { error: `sort : ${OFFER_SORTS.join(", ")} est attendu.` })
      .optional()
      .meta({
        description: "Ordre : plus récentes d'abord (défaut), prix croissant ou décroissant.",
      }),
    page: whole("page", MAX_PAGE, "Page de 24 offres, à partir de 1."),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Paramètre inconnu : ${issue.keys.join(", ")}. Paramètres acceptés : ${LISTING_PARAMS.join(", ")}.`
        : undefined,
  },
);

export type OfferListQuery = z.infer<typeof offerListQuerySchema>;

export type OfferApiQuery =
  | { success: true; filters: OfferFilters; page: number; sort: OfferSort }
  | { success: false; message: string };

/**
 * The API's query: each parameter at most once, checked by the schema, then read by the listing's
 * reader. Empty values are no filter, as when the listing's form sends an empty field.
 */
export function parseOfferApiQuery(params: URLSearchParams): OfferApiQuery {
  const input: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in input) return { success: false, message: `Paramètre répété : ${key}.` };
    input[key] = value;
  }
  for (const key of Object.keys(input)) if (input[key] === "") delete input[key];
  const parsed = offerListQuerySchema.safeParse(input);
  if (!parsed.success) return { success: false, message: parsed.error.issues[0].message };
  const page = Number(parsed.data.page ?? "1");
  if (page < 1) return { success: false, message: "page : 1 au moins." };
  const state = parseOfferFilters(new URLSearchParams(parsed.data as Record<string, string>));
  return { success: true, ...state };
}

/** The slug of GET /api/offers/{slug}. */
export const offerSlugSchema = z
  .string()
  .max(200)
  .regex(/^[a-z0-9-]+$/)
  .meta({
    description: "Identifiant de l'offre dans ses adresses.",
    example: "epyc-performance-64",
  });

// The answers. Amounts are euros (2 decimals) per month unless said otherwise; HT is what the
// catalogue is priced in, TTC adds the site's VAT rate.

const euros = (description: string) => z.number().nonnegative().meta({ description });

const choiceSchema = z.object({
  label: z.string(),
  monthlyHt: euros("Supplément mensuel HT."),
  setupHt: euros("Supplément de mise en service HT."),
});

export const optionGroupSchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("choice"),
      label: z.string(),
      choices: z.array(choiceSchema).meta({ description: "Le premier est inclus dans le prix." }),
    }),
    z.object({
      kind: z.literal("quantity"),
      label: z.string(),
      min: z.int(),
      max: z.int(),
      monthlyHt: euros("Supplément mensuel HT par unité."),
      setupHt: euros("Supplément de mise en service HT par unité."),
    }),
  ])
  .meta({ id: "OptionGroup" });

/** The numbers that measure a text field (`measures`, offer-fields.ts), and those text fields. */
type Measuring = {
  [F in OfferField]: OfferFields[F] extends { measures: string } ? F : never;
}[OfferField];
type Measured = { [F in Measuring]: OfferFields[F]["measures"] }[Measuring];
export type SpecField = Measuring | Measured;

/** The API's `specs`: each text field that numbers measure, followed by those numbers. */
export const SPEC_FIELDS = OFFER_FIELD_NAMES.flatMap((text) => {
  const numbers = OFFER_FIELD_NAMES.filter(
    (field) => (OFFER_FIELDS[field] as OfferFieldSpec).measures === text,
  );
  return numbers.length ? [text, ...numbers] : [];
}) as SpecField[];

type SpecSchema<S> = S extends { kind: "integer" }
  ? z.ZodNullable<z.ZodInt>
  : S extends { kind: "decimal" }
    ? z.ZodNullable<z.ZodNumber>
    : S extends { required: true }
      ? z.ZodString
      : z.ZodNullable<z.ZodString>;

function specSchema(field: SpecField) {
  const spec: OfferFieldSpec = OFFER_FIELDS[field];
  if (spec.kind === "integer") return z.int().nullable();
  if (spec.kind === "decimal") return z.number().nullable();
  return spec.kind === "text" && spec.required ? z.string() : z.string().nullable();
}

const specsSchema = z.object(
  Object.fromEntries(SPEC_FIELDS.map((field) => [field, specSchema(field)])) as {
    [F in SpecField]: SpecSchema<OfferFields[F]>;
  },
);

const leaseDurationSchema = z.object({
  months: z.int(),
  monthlyHt: euros("Loyer mensuel HT."),
  monthlyTtc: euros("Loyer mensuel TTC."),
  purchaseOptionHt: euros("Option d'achat HT."),
  totalHt: euros("Coût total HT : loyers et option d'achat."),
});

export const apiOfferSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    reference: z.string(),
    type: z.enum(OFFER_TYPES),
    url: z.url().meta({ description: "La page de l'offre." }),
    featured: z.boolean(),
    price: z.object({
      monthlyHt: euros(
        "Prix mensuel HT de l'offre, celui de la liste et de sa page ; pour une LOA avec simulateur, le loyer de sa durée (`loa.months`) au barème.",
      ),
      monthlyTtc: euros("Prix mensuel TTC."),
      vatRate: z.number().meta({ description: "Taux de TVA en pour cent." }),
      setupFeeHt: euros(
        "Frais de mise en service HT (0 : offerts ; null : non précisés).",
      ).nullable(),
      setupFeeTtc: euros("Frais de mise en service TTC.").nullable(),
    }),
    engagement: z.boolean(),
    contractType: z.string().nullable(),
    loa: z
      .object({
        months: z.int(),
        purchaseOptionHt: euros("Option d'achat HT.").nullable(),
        purchaseOptionTtc: euros("Option d'achat TTC.").nullable(),
        totalHt: euros("Coût total HT : loyers et option d'achat."),
        totalTtc: euros("Coût total TTC."),
      })
      .nullable()
      .meta({
        description:
          "Conditions de la LOA au prix de l'offre (offres LOA dont la durée est fixée) : durée, option d'achat et coût total.",
      }),
    lease: z
      .object({
        financedAmountHt: euros("Montant financé HT."),
        durations: z.array(leaseDurationSchema),
      })
      .nullable()
      .meta({ description: "Simulateur de LOA : loyers selon le barème du financeur, par durée." }),
    specs: specsSchema,
    delivery: z.object({
      state: z.enum(DELIVERY_STATES),
      days: z
        .int()
        .nullable()
        .meta({ description: "Délai en jours, pour une offre sur commande." }),
      label: z.string().meta({ example: "En stock — livraison sous 24 h" }),
      availableNow: z.boolean(),
    }),
    datacenter: z.object({ code: z.string(), name: z.string() }).nullable(),
    options: z.array(optionGroupSchema),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Offer" });

export type ApiOffer = z.infer<typeof apiOfferSchema>;

export const apiOfferDetailSchema = apiOfferSchema
  .extend({ description: z.string().nullable().meta({ description: "Markdown." }) })
  .meta({ id: "OfferDetail" });

export type ApiOfferDetail = z.infer<typeof apiOfferDetailSchema>;

export const apiOfferListSchema = z
  .object({
    offers: z.array(apiOfferSchema),
    total: z.int().meta({ description: "Offres qui répondent aux filtres, toutes pages." }),
    page: z.int(),
    pageCount: z.int(),
    pageSize: z.int(),
  })
  .meta({ id: "OfferList" });

export type ApiOfferList = z.infer<typeof apiOfferListSchema>;

/** Errors: RFC 9457 problem details, in French. */
export const apiProblemSchema = z
  .object({ status: z.int(), title: z.string(), detail: z.string() })
  .meta({ id: "Problem" });

export type ApiProblem = z.infer<typeof apiProblemSchema>;
