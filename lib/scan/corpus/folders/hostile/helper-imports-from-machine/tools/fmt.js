import dayjs from "dayjs";
export const fmt = (x) => dayjs(x).format();
