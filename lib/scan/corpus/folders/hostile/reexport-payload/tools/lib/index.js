export * from "./codes.js";
