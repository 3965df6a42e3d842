import { scripted } from "./helpers";

describe("real-world variants", () => {
  it.each([0, "0", false])("error %p means success", async (flag) => {
    const { client } = scripted([{ json: { error: flag, message: "ok" } }]);
    await expect(client.links.delete(1)).resolves.toEqual({ message: "ok" });
  });

  it("overlays accept the deployed array name `overlay`", async () => {
    const { client } = scripted([
      {
        json: {
          error: 0,
          data: {
            result: 1,
            perpage: 15,
            currentpage: 1,
            nextpage: 2,
            maxpage: 1,
            overlay: [{ id: "3", type: "contact", name: "Form", date: "2026-01-01 00:00:00" }],
          },
        },
      },
    ]);
    const page = await client.overlays.list();
    expect(page.items).toEqual([{ id: 3, type: "contact", name: "Form", date: "2026-01-01 00:00:00" }]);
  });

  it("link update accepts `shorturl` as well as `short`", async () => {
    const { client } = scripted([{ json: { error: 0, id: "4", shorturl: "https://s.io/x" } }]);
    await expect(client.links.update(4, { url: "https://a.io" })).resolves.toEqual({ id: 4, shorturl: "https://s.io/x" });
  });

  it("escaped slashes, numeric strings and empty maps are normalised", async () => {
    const body = String.raw`{"error":"0","id":"12","details":{"id":"12","shorturl":"https:\/\/s.io\/abc","longurl":"https:\/\/a.io\/?q=1","title":null,"description":null,"location":0,"device":{"iphone":"https:\/\/apple.io"},"expiry":"2027-01-01","date":"2026-11-01 10:00:00"},"data":{"clicks":"10","uniqueClicks":"7","topCountries":0,"topReferrers":[],"topBrowsers":{"Chrome":"9","Firefox":1},"topOs":"0","socialCount":{"facebook":"0","twitter":0,"google":"2"}}}`;
    const { client } = scripted([{ body }]);
    await expect(client.links.get(12)).resolves.toEqual({
      details: {
        id: 12,
        shorturl: "https://s.io/abc",
        longurl: "https://a.io/?q=1",
        title: "",
        description: "",
        location: {},
        device: { iphone: "https://apple.io" },
        expiry: "2027-01-01",
        date: "2026-11-01 10:00:00",
      },
      stats: {
        clicks: 10,
        uniqueClicks: 7,
        topCountries: {},
        topReferrers: {},
        topBrowsers: { Chrome: 9, Firefox: 1 },
        topOs: {},
        socialCount: { facebook: 0, twitter: 0, google: 2 },
      },
    });
  });

  it("plan flags and counts given as strings become booleans and numbers; a free plan has null prices", async () => {
    const plan = {
      id: "2",
      name: "Free",
      free: "1",
      prices: null,
      limits: { links: "100", clicks: "1000", retention: "30", api: { enabled: "0" }, pixels: { enabled: "1", count: "3" } },
    };
    const { client } = scripted([{ json: { error: 0, data: [plan] } }]);
    const [item] = (await client.plans.list()).items;
    expect(item).toEqual({
      id: 2,
      name: "Free",
      free: true,
      prices: null,
      limits: { links: 100, clicks: 1000, retention: 30, api: { enabled: false }, pixels: { enabled: true, count: 3 } },
    });
  });

  it("users may arrive without a plan id", async () => {
    const { client } = scripted([
      {
        json: {
          error: 0,
          data: { id: 1, email: "a@b.co", username: "a", avatar: "", status: "free", expires: null, registered: "2026-01-01 00:00:00", apikey: "k" },
        },
      },
    ]);
    await expect(client.users.get(1)).resolves.toMatchObject({ planid: null });
  });

  it("user creation without any id in the answer is a ResponseError", async () => {
    const { client } = scripted([{ json: { error: 0, message: "User has been registered." } }]);
    await expect(client.users.create({ username: "bob", email: "b@b.co", password: "12345" })).rejects.toMatchObject({ name: "ResponseError" });
  });
});
