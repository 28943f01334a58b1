// The instruction audit in the browser (issue 20): a prompt skill imported from a SKILL.md folder
// with a bundled script. Its card and pages say in plain words what it asks the agent to do and
// name the script that would run on the person's own machine, outside the sandbox.
import { randomBytes } from "node:crypto";
import { expect, test } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

test("a SKILL.md skill's card shows what it asks for and names its script outside the sandbox", async ({ page }) => {
  test.setTimeout(120_000);
  const id = uid();
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Audit author ${id}`);
  await page.getByLabel("Email").fill(`e2e-instructions-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const tokenRes = await page.request.post(url("/api/v1/tokens"), { data: { name: "e2e publish" } });
  expect(tokenRes.status()).toBe(201);
  const { secret } = (await tokenRes.json()) as { secret: string };

  const slug = `e2e-setup-${id}`;
  const word = `quokka${id}`;
  const body = `# Setup helper\n\nPrepares a ${word} workspace. Run \`python3 scripts/setup.py\` once, then:\n\n\`\`\`bash\nsudo apt-get install -y jq\n\`\`\`\n`;
  const skillMd = `---\nname: ${slug}\ndescription: Prepares a ${word} workspace.\nallowed-tools: Bash\nmetadata:\n  version: "1.0.0"\n---\n\n${body}`;
  const res = await page.request.post(url("/api/v1/skills"), {
    headers: { authorization: `Bearer ${secret}` },
    data: {
      contract: "actor.skill@1",
      slug,
      version: "1.0.0",
      name: slug,
      summary: `Prepares a ${word} workspace.`,
      instructions: body,
      requires: { kinds: [] },
      resources: [
        { name: "SKILL.md", media_type: "text/markdown", text: skillMd },
        { name: "scripts/setup.py", media_type: "text/plain", text: "import pathlib\npathlib.Path('workspace').mkdir(exist_ok=True)\nprint('ready')\n" },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await expect
    .poll(async () => ((await (await page.request.get(url(`/api/v1/skills/${slug}/1.0.0/listing`))).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe("flagged");

  await page.goto(url(`/?q=${word}&status=all`));
  const card = page.getByRole("article", { name: new RegExp(slug) });
  await expect(card.getByTestId("asks")).toHaveText("Asks your agent to: run shell commands · download and install software · use administrator rights");
  await expect(card.getByTestId("outside-scripts")).toHaveText(
    "Its instructions ask your agent to run scripts/setup.py on your own machine. OpenVibe does not run or sandbox it.",
  );

  await page.goto(url(`/skills/${slug}/1.0.0`));
  await expect(page.getByTestId("outside-scripts")).toContainText("scripts/setup.py");
  await page.goto(url(`/skills/${slug}/1.0.0/install`));
  await expect(page.locator('[data-script="scripts/setup.py"]')).toContainText("The audit found nothing in it that needs your attention.");
});
