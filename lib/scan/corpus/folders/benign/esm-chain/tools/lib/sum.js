import { add } from "./add.js";
export const total = (xs) => xs.reduce(add, 0);
