import { describe, expect, it } from "vitest";
import { forgetBlob, recentBlob, rememberBlob } from "./recent";

describe("the blobs this process read last", () => {
  it("gives a copy of small ones back, leaves large ones to the store, and forgets on delete", () => {
    rememberBlob("sha256/aa", Buffer.from("job.json"));
    const copy = recentBlob("sha256/aa")!;
    expect(copy.toString()).toBe("job.json");
    copy.write("XXX");
    expect(recentBlob("sha256/aa")!.toString()).toBe("job.json");

    rememberBlob("sha256/bb", Buffer.alloc(64 * 1024 + 1));
    expect(recentBlob("sha256/bb")).toBeUndefined();

    forgetBlob("sha256/aa");
    expect(recentBlob("sha256/aa")).toBeUndefined();
  });

  it("keeps the one read last when the oldest go", () => {
    for (let i = 0; i < 512; i++) rememberBlob(`sha256/r${i}`, Buffer.from(String(i)));
    expect(recentBlob("sha256/r0")!.toString()).toBe("0");
    rememberBlob("sha256/r512", Buffer.from("512"));
    expect(recentBlob("sha256/r0")!.toString()).toBe("0");
    expect(recentBlob("sha256/r1")).toBeUndefined();
    for (let i = 0; i <= 512; i++) forgetBlob(`sha256/r${i}`);
  });

  it("keeps at most 512 objects and 8 MiB, the oldest going first", () => {
    for (let i = 0; i < 600; i++) rememberBlob(`sha256/n${i}`, Buffer.from(String(i)));
    expect(recentBlob("sha256/n0")).toBeUndefined();
    expect(recentBlob("sha256/n87")).toBeUndefined();
    expect(recentBlob("sha256/n88")!.toString()).toBe("88");
    expect(recentBlob("sha256/n599")!.toString()).toBe("599");

    for (let i = 0; i < 200; i++) rememberBlob(`sha256/big${i}`, Buffer.alloc(60 * 1024, i));
    // 136 objects of 60 KiB fit in 8 MiB; the small ones before them went first
    expect(recentBlob("sha256/n599")).toBeUndefined();
    expect(recentBlob("sha256/big63")).toBeUndefined();
    expect(recentBlob("sha256/big64")![0]).toBe(64);
    expect(recentBlob("sha256/big199")![0]).toBe(199);
  });
});
