import { apiJson } from "~/features/offers/api-response.server";
import { openApiDocument } from "~/features/offers/openapi.server";
import { siteConfig } from "~/platform/site.server";

/** GET /api/openapi.json: the API's OpenAPI 3.1 document (issue 30). */
export function loader() {
  const site = siteConfig();
  return apiJson(openApiDocument(site.name, site.baseUrl));
}
