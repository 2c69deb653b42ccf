import { expect, test } from "vitest";
import { retentionLabel } from "./retention";

test("states the retention period in months and years", () => {
  expect(retentionLabel(36)).toBe("36 mois (3 ans)");
  expect(retentionLabel(12)).toBe("12 mois (1 an)");
  expect(retentionLabel(18)).toBe("18 mois (1 an et 6 mois)");
  expect(retentionLabel(25)).toBe("25 mois (2 ans et 1 mois)");
  expect(retentionLabel(6)).toBe("6 mois");
  expect(retentionLabel(1)).toBe("1 mois");
});
