// The demo catalogue (data only): offers, datacenters, reply templates, each offer's availability,
// options and lease terms. seed.server.ts loads it.
import { allOfferNumbers } from "~/features/offers/offer-form";
import { parseOptionLines, type OptionGroup } from "~/lib/offer-options";
import type { NewOffer } from "~/platform/schema.server";

export type SeedOffer = Omit<NewOffer, "slug" | "id" | "createdAt" | "updatedAt">;

// Every row names every optional number, so that reloading the demo also resets those left out.
const NO_NUMBERS = allOfferNumbers(null) satisfies Partial<SeedOffer>;

// Realistic but fictitious catalogue, newest first. Specs as numbers, setup fees and LOA terms
// are filled in (one LOA without stated terms, one promotion without numbers: both cases show).
// The rent and option of an LOA offer with a financed amount (DEMO_LEASES) are the demo scale's;
// loadDemoOffers writes them again from the scale in force (decision 038).
export const DEMO_OFFERS: SeedOffer[] = [
  {
    title: "EPYC Performance 64",
    reference: "DED-EPYC-7543",
    type: "dedicated",
    featured: true,
    cpu: "AMD EPYC 7543 (32 cœurs / 64 threads)",
    ram: "256 Go DDR4 ECC",
    storage: "2 × 3,84 To NVMe",
    network: "10 Gbit/s illimité",
    price: "899.99",
    cpuCores: 32,
    ramGb: 256,
    storageTb: "7.68",
    bandwidthGbps: "10.00",
    setupFee: "49.00",
    engagement: true,
    contractType: "Engagement 12 mois",
    metaTitle: "Serveur dédié AMD EPYC 7543 — 256 Go RAM",
    metaDescription:
      "Serveur dédié AMD EPYC 7543 32 cœurs, 256 Go de RAM ECC, 2 × 3,84 To NVMe et 10 Gbit/s illimité.",
    description: `## La puissance brute pour vos charges critiques

Le **EPYC Performance 64** s'adresse aux bases de données volumineuses, à la virtualisation dense et au calcul intensif.

- 32 cœurs Zen 3 à 2,8 GHz (3,7 GHz en boost)
- Mémoire ECC pour une intégrité maximale
- RAID 1 logiciel ou matériel au choix

> Livré en moins de 24h, prêt pour Proxmox, VMware ou votre distribution Linux préférée.`,
  },
  {
    title: "Xeon Essentiel",
    reference: "DED-XE-2388G",
    type: "dedicated",
    featured: false,
    cpu: "Intel Xeon E-2388G (8 cœurs / 16 threads)",
    ram: "64 Go DDR4 ECC",
    storage: "2 × 1 To NVMe",
    network: "1 Gbit/s illimité",
    price: "129.00",
    cpuCores: 8,
    ramGb: 64,
    storageTb: "2.00",
    bandwidthGbps: "1.00",
    setupFee: "0.00",
    engagement: false,
    contractType: "Mensuel sans engagement",
    description: `Un serveur polyvalent pour **sites web**, applications métier et environnements de préproduction.

1. Installation automatique de l'OS
2. Accès KVM à distance
3. Sauvegarde 100 Go incluse`,
  },
  {
    title: "Ryzen Gaming 7950X",
    reference: "DED-RYZ-7950X",
    type: "dedicated",
    featured: true,
    cpu: "AMD Ryzen 9 7950X (16 cœurs / 32 threads)",
    ram: "128 Go DDR5",
    storage: "2 × 2 To NVMe Gen4",
    network: "1 Gbit/s anti-DDoS jeu",
    price: "189.90",
    cpuCores: 16,
    ramGb: 128,
    storageTb: "4.00",
    bandwidthGbps: "1.00",
    setupFee: "29.00",
    engagement: false,
    contractType: "Mensuel sans engagement",
    description: `Fréquence élevée et faible latence : idéal pour les **serveurs de jeu** (Minecraft, FiveM, Rust) et le rendu.

Protection anti-DDoS spécialisée jeu incluse.`,
  },
  {
    title: "Stockage Archive 48 To",
    reference: "DED-STO-48T",
    type: "dedicated",
    featured: false,
    cpu: "Intel Xeon Silver 4310 (12 cœurs)",
    ram: "64 Go DDR4 ECC",
    storage: "4 × 12 To SATA + 2 × 480 Go SSD",
    network: "1 Gbit/s illimité",
    price: "239.00",
    cpuCores: 12,
    ramGb: 64,
    storageTb: "48.96",
    bandwidthGbps: "1.00",
    setupFee: "99.00",
    engagement: true,
    contractType: "Engagement 6 mois",
    description: `Grande capacité pour vos **sauvegardes**, archives et serveurs de fichiers.

| Disques | Capacité brute |
|---|---|
| 4 × 12 To | 48 To |`,
  },
  {
    title: "Starter Web",
    reference: "DED-ATOM-C3758",
    type: "dedicated",
    featured: false,
    cpu: "Intel Atom C3758 (8 cœurs)",
    ram: "16 Go DDR4",
    storage: "2 × 480 Go SSD",
    network: "500 Mbit/s",
    price: "39.99",
    cpuCores: 8,
    ramGb: 16,
    storageTb: "0.96",
    bandwidthGbps: "0.50",
    setupFee: "0.00",
    engagement: false,
    contractType: null,
    description:
      "Le point d'entrée idéal pour héberger vos premiers projets web et services légers.",
  },
  {
    title: "GPU Calcul A4000",
    reference: "DED-GPU-A4000",
    type: "dedicated",
    featured: false,
    cpu: "AMD EPYC 7313P (16 cœurs)",
    ram: "128 Go DDR4 ECC",
    storage: "2 × 1,92 To NVMe",
    network: "10 Gbit/s",
    price: "549.00",
    cpuCores: 16,
    ramGb: 128,
    storageTb: "3.84",
    bandwidthGbps: "10.00",
    setupFee: "149.00",
    engagement: true,
    contractType: "Engagement 12 mois",
    description: `Carte **NVIDIA RTX A4000** 16 Go pour l'inférence IA, l'encodage vidéo et le rendu 3D.`,
  },
  {
    title: "LOA PME 36 mois",
    reference: "LOA-DL380-36",
    type: "loa",
    featured: true,
    cpu: "2 × Intel Xeon Gold 5318Y (48 cœurs)",
    ram: "256 Go DDR4 ECC",
    storage: "4 × 1,92 To SSD SAS",
    network: "2 × 10 Gbit/s",
    price: "409.50",
    cpuCores: 48,
    ramGb: 256,
    storageTb: "7.68",
    bandwidthGbps: "20.00",
    setupFee: "0.00",
    loaMonths: 36,
    loaPurchaseOption: "195.00",
    engagement: true,
    contractType: "LOA 36 mois",
    description: `## Équipez-vous sans immobiliser votre trésorerie

Serveur **HPE ProLiant DL380 Gen10 Plus** installé chez vous ou dans notre datacenter.

- Loyers fixes sur 36 mois
- Option d'achat en fin de contrat
- Maintenance sur site J+1 incluse`,
  },
  {
    title: "LOA Startup 24 mois",
    reference: "LOA-R650-24",
    type: "loa",
    featured: false,
    cpu: "Intel Xeon Silver 4314 (16 cœurs)",
    ram: "128 Go DDR4 ECC",
    storage: "2 × 960 Go SSD",
    network: "2 × 1 Gbit/s",
    price: "219.84",
    cpuCores: 16,
    ramGb: 128,
    storageTb: "1.92",
    bandwidthGbps: "2.00",
    loaMonths: 24,
    loaPurchaseOption: "72.00",
    engagement: true,
    contractType: "LOA 24 mois",
    description:
      "Un **Dell PowerEdge R650** financé sur 24 mois, avec option d'achat en fin de contrat.",
  },
  {
    title: "LOA Cluster Virtualisation",
    reference: "LOA-VIRT-3N",
    type: "loa",
    featured: false,
    cpu: "3 × AMD EPYC 7443P (72 cœurs au total)",
    ram: "768 Go DDR4 ECC",
    storage: "12 × 3,84 To NVMe (Ceph)",
    network: "25 Gbit/s redondé",
    price: "1884.80",
    cpuCores: 72,
    ramGb: 768,
    storageTb: "46.08",
    bandwidthGbps: "25.00",
    setupFee: "490.00",
    loaMonths: 48,
    loaPurchaseOption: "1140.00",
    engagement: true,
    contractType: "LOA 48 mois",
    description: `Trois nœuds hyperconvergés prêts pour **Proxmox VE** et Ceph, livrés et configurés.`,
  },
  {
    title: "LOA Flex Sans Engagement",
    reference: "LOA-FLEX-T350",
    type: "loa",
    featured: false,
    cpu: "Intel Xeon E-2334 (4 cœurs)",
    ram: "32 Go DDR4 ECC",
    storage: "2 × 2 To HDD",
    network: "1 Gbit/s",
    price: "79.00",
    cpuCores: 4,
    ramGb: 32,
    storageTb: "4.00",
    bandwidthGbps: "1.00",
    engagement: false,
    contractType: "LOA mensuelle résiliable",
    description: "Une tour **Dell PowerEdge T350** pour le bureau, résiliable chaque mois.",
  },
  {
    title: "Xeon Legacy (ancienne gamme)",
    reference: "DED-XE-1230V6",
    type: "dedicated",
    featured: false,
    cpu: "Intel Xeon E3-1230 v6 (4 cœurs)",
    ram: "32 Go DDR4",
    storage: "2 × 2 To HDD",
    network: "1 Gbit/s",
    price: "59.00",
    cpuCores: 4,
    ramGb: 32,
    storageTb: "4.00",
    bandwidthGbps: "1.00",
    engagement: false,
    contractType: null,
    isActive: false,
    description: "Offre retirée du catalogue.",
  },
  {
    title: "LOA Stockage 60 mois",
    reference: "LOA-NAS-60",
    type: "loa",
    featured: false,
    cpu: "Intel Xeon D-1541 (8 cœurs)",
    ram: "64 Go DDR4 ECC",
    storage: "8 × 16 To SATA",
    network: "10 Gbit/s",
    price: "328.13",
    cpuCores: 8,
    ramGb: 64,
    storageTb: "128.00",
    bandwidthGbps: "10.00",
    loaMonths: 60,
    loaPurchaseOption: "235.50",
    engagement: true,
    contractType: "LOA 60 mois",
    isActive: false,
    description: "Baie de stockage en location longue durée (offre suspendue).",
  },
  {
    title: "EPYC Bare Metal 9254",
    reference: "DED-EPYC-9254",
    type: "dedicated",
    featured: false,
    cpu: "AMD EPYC 9254 (24 cœurs Zen 4)",
    ram: "384 Go DDR5 ECC",
    storage: "4 × 3,84 To NVMe Gen4",
    network: "25 Gbit/s",
    price: "1249.00",
    cpuCores: 24,
    ramGb: 384,
    storageTb: "15.36",
    bandwidthGbps: "25.00",
    setupFee: "0.00",
    engagement: true,
    contractType: "Engagement 24 mois",
    description: `La génération **Zen 4** avec 12 canaux DDR5 pour les bases de données en mémoire.`,
  },
  {
    title: "Xeon Web 2 % Promo_Été",
    reference: "DED-PROMO_100%",
    type: "dedicated",
    featured: false,
    cpu: "Intel Xeon E-2236 (6 cœurs)",
    ram: "32 Go DDR4 ECC",
    storage: "2 × 512 Go NVMe",
    network: "1 Gbit/s",
    price: "69.00",
    engagement: false,
    contractType: "Mensuel sans engagement",
    description: "Une offre promotionnelle pour les sites e-commerce et les applications PHP.",
  },
];

/** The demo's datacenters (issue 21); the administrator keeps the list at /admin/datacenters. */
export const DEMO_DATACENTERS = [
  { code: "paris", name: "Paris" },
  { code: "roubaix", name: "Roubaix" },
  { code: "strasbourg", name: "Strasbourg" },
] as const;

/**
 * The demo's `Modèles de réponse` (issue 40), with the placeholders the request page replaces
 * ({nom}, {reference}, {offre}, {signature}); the sales team keeps them at /admin/modeles.
 */
export const DEMO_REPLY_TEMPLATES = [
  {
    title: "Accusé de réception",
    body: `Bonjour {nom},

Nous avons bien reçu votre demande {reference} concernant {offre} et nous vous en remercions.
Un commercial l'étudie et revient vers vous sous un jour ouvré avec une proposition adaptée.

Bien cordialement,
{signature}`,
  },
  {
    title: "Demande d'informations complémentaires",
    body: `Bonjour {nom},

Merci pour votre demande {reference} concernant {offre}. Afin de vous proposer la configuration la plus juste, pourriez-vous nous préciser :
- l'usage prévu du serveur (hébergement web, base de données, calcul…) ;
- la durée d'engagement souhaitée ;
- la date de mise en service attendue ?

Bien cordialement,
{signature}`,
  },
  {
    title: "Relance devis",
    body: `Bonjour {nom},

Nous revenons vers vous au sujet de notre proposition pour {offre} (demande {reference}).
Avez-vous pu en prendre connaissance ? Nous restons à votre disposition pour l'ajuster ou répondre à vos questions.

Bien cordialement,
{signature}`,
  },
] as const;

type Availability = Pick<SeedOffer, "delivery" | "deliveryDays" | "datacenter">;
const at = (
  datacenter: (typeof DEMO_DATACENTERS)[number]["code"],
  delivery: Availability["delivery"],
  deliveryDays: number | null = null,
): Availability => ({ datacenter, delivery, deliveryDays });

/** Where and when each demo offer is delivered, in DEMO_OFFERS' order: every state shows. */
const DEMO_AVAILABILITY: Availability[] = [
  at("paris", "stock_24h"),
  at("roubaix", "stock_24h"),
  at("strasbourg", "stock_72h"),
  at("roubaix", "on_order", 10),
  at("paris", "stock_72h"),
  at("strasbourg", "on_order", 21),
  at("paris", "stock_24h"),
  at("roubaix", "stock_72h"),
  at("paris", "stock_24h"),
  at("strasbourg", "stock_24h"),
  at("roubaix", "stock_72h"),
  at("paris", "on_order", 15),
  at("strasbourg", "sold_out"),
  at("roubaix", "stock_24h"),
];

/** Options typed as the administrator would (offer-options.ts), by DEMO_OFFERS index. */
const DEMO_OPTION_LINES: Record<number, string> = {
  // EPYC Performance 64
  0: `Mémoire | 256 Go inclus | 0 | 0
Mémoire | 512 Go | 120 | 0
Mémoire | 1 To | 290 | 49
Stockage | 2 × 3,84 To NVMe inclus | 0 | 0
Stockage | 4 × 3,84 To NVMe | 60 | 0
IPv4 supplémentaires | 0-16 | 2 | 5
Support | Standard inclus | 0 | 0
Support | Premium 24/7 | 79 | 0`,
  // Xeon Essentiel
  1: `Mémoire | 64 Go inclus | 0 | 0
Mémoire | 128 Go | 40 | 0
Stockage | 2 × 1 To NVMe inclus | 0 | 0
Stockage | 2 × 2 To NVMe | 25 | 0
IPv4 supplémentaires | 0-16 | 2 | 5`,
  // Ryzen Gaming 7950X
  2: `Mémoire | 128 Go inclus | 0 | 0
Mémoire | 192 Go | 35 | 0
Protection anti-DDoS | Jeu incluse | 0 | 0
Protection anti-DDoS | Jeu avancée | 30 | 20`,
  // LOA PME 36 mois
  6: `Support | Standard inclus | 0 | 0
Support | Premium 24/7 | 59 | 0
IPv4 supplémentaires | 0-16 | 2 | 5`,
};

function demoOptions(index: number): OptionGroup[] | null {
  const text = DEMO_OPTION_LINES[index];
  if (!text) return null;
  const parsed = parseOptionLines(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.groups;
}

/** The lease simulator's terms of the LOA demo offers (financed amount HT, durations). */
const NO_LEASE = { financedAmount: null, leaseDurations: null };
const DEMO_LEASES: Record<number, Pick<SeedOffer, "financedAmount" | "leaseDurations">> = {
  6: { financedAmount: "13000.00", leaseDurations: [24, 36, 48] },
  7: { financedAmount: "4800.00", leaseDurations: [24, 36] },
  8: { financedAmount: "76000.00", leaseDurations: [36, 48, 60] },
  11: { financedAmount: "15700.00", leaseDurations: [48, 60] },
};

/** The demo offer at `index` with its availability, options and lease terms (no slug, no dates). */
export function demoOffer(index: number) {
  return {
    ...NO_NUMBERS,
    ...DEMO_AVAILABILITY[index],
    options: demoOptions(index),
    ...(DEMO_LEASES[index] ?? NO_LEASE),
    ...DEMO_OFFERS[index],
  };
}
