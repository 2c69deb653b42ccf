import { apiJson } from "~/server/api-response.server";
import { openApiDocument } from "~/server/openapi.server";
import { siteConfig } from "~/server/site.server";

/** GET /api/openapi.json: the API's OpenAPI 3.1 document (issue 30). */
export function loader() {
  const site = siteConfig();
  return apiJson(openApiDocument(site.name, site.baseUrl));
}
