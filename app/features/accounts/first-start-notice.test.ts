import { describe, expect, it } from "vitest";
import { firstStartNotice, parseFirstStartNotice } from "./first-start-notice";

describe("first start notice", () => {
  const notice = firstStartNotice({
    email: "admin@example.fr",
    password: "abcde-fghij-klmno-pqrst",
    signInUrl: "http://localhost:3000/auth",
  });

  it("frames the credentials in plain text, every line the same width", () => {
    const lines = notice.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\+-+\+$/);
    expect(lines.at(-1)).toBe(lines[0]);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(notice).toContain("E-mail       : admin@example.fr");
    expect(notice).toContain("Mot de passe : abcde-fghij-klmno-pqrst");
    expect(notice).toContain("http://localhost:3000/auth");
  });

  it("is read back from a capture that holds other lines around it", () => {
    const capture = `{"level":"info"}\n${notice}{"level":"warn"}\n`;
    expect(parseFirstStartNotice(capture)).toEqual({
      email: "admin@example.fr",
      password: "abcde-fghij-klmno-pqrst",
    });
    expect(parseFirstStartNotice('{"password":"[redacted]"}')).toBeNull();
  });
});
