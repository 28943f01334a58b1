// Runs before every vitest file: whatever the file's tests made with tempDir is removed after the
// file, however its tests ended (registered first, so it runs after the file's own afterAll hooks).
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir";

afterAll(removeTempDirs);
