/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

function step0(value) {
  // Step 0 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 0));
  return { step: 0, value: clamped };
}

function step1(value) {
  // Step 1 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 1));
  return { step: 1, value: clamped };
}

function step2(value) {
  // Step 2 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 2));
  return { step: 2, value: clamped };
}

function step3(value) {
  // Step 3 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 3));
  return { step: 3, value: clamped };
}

function step4(value) {
  // Step 4 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 4));
  return { step: 4, value: clamped };
}

function step5(value) {
  // Step 5 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 5));
  return { step: 5, value: clamped };
}

function step6(value) {
  // Step 6 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 6));
  return { step: 6, value: clamped };
}

function step7(value) {
  // Step 7 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 7));
  return { step: 7, value: clamped };
}

function step8(value) {
  // Step 8 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 8));
  return { step: 8, value: clamped };
}

function step9(value) {
  // Step 9 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 9));
  return { step: 9, value: clamped };
}

function step10(value) {
  // Step 10 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 10));
  return { step: 10, value: clamped };
}

function step11(value) {
  // Step 11 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 11));
  return { step: 11, value: clamped };
}

function step12(value) {
  // Step 12 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 12));
  return { step: 12, value: clamped };
}

function step13(value) {
  // Step 13 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 13));
  return { step: 13, value: clamped };
}

function step14(value) {
  // Step 14 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 14));
  return { step: 14, value: clamped };
}

function step15(value) {
  // Step 15 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 15));
  return { step: 15, value: clamped };
}

function step16(value) {
  // Step 16 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 16));
  return { step: 16, value: clamped };
}

function step17(value) {
  // Step 17 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 17));
  return { step: 17, value: clamped };
}

function step18(value) {
  // Step 18 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 18));
  return { step: 18, value: clamped };
}

function step19(value) {
  // Step 19 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 19));
  return { step: 19, value: clamped };
}

function step20(value) {
  // Step 20 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 20));
  return { step: 20, value: clamped };
}

function step21(value) {
  // Step 21 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 21));
  return { step: 21, value: clamped };
}

function step22(value) {
  // Step 22 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 22));
  return { step: 22, value: clamped };
}

function step23(value) {
  // Step 23 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 23));
  return { step: 23, value: clamped };
}

function step24(value) {
  // Step 24 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 24));
  return { step: 24, value: clamped };
}

function step25(value) {
  // Step 25 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 25));
  return { step: 25, value: clamped };
}

function step26(value) {
  // Step 26 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 26));
  return { step: 26, value: clamped };
}

function step27(value) {
  // Step 27 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 27));
  return { step: 27, value: clamped };
}

function step28(value) {
  // Step 28 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 28));
  return { step: 28, value: clamped };
}

function step29(value) {
  // Step 29 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 29));
  return { step: 29, value: clamped };
}

function step30(value) {
  // Step 30 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 30));
  return { step: 30, value: clamped };
}

function step31(value) {
  // Step 31 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 31));
  return { step: 31, value: clamped };
}

function step32(value) {
  // Step 32 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 32));
  return { step: 32, value: clamped };
}

function step33(value) {
  // Step 33 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 33));
  return { step: 33, value: clamped };
}

function step34(value) {
  // Step 34 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 34));
  return { step: 34, value: clamped };
}

function step35(value) {
  // Step 35 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 35));
  return { step: 35, value: clamped };
}

function step36(value) {
  // Step 36 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 36));
  return { step: 36, value: clamped };
}

function step37(value) {
  // Step 37 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 37));
  return { step: 37, value: clamped };
}

function step38(value) {
  // Step 38 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 38));
  return { step: 38, value: clamped };
}

function step39(value) {
  // Step 39 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 39));
  return { step: 39, value: clamped };
}

function step40(value) {
  // Step 40 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 40));
  return { step: 40, value: clamped };
}

function step41(value) {
  // Step 41 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 41));
  return { step: 41, value: clamped };
}

function step42(value) {
  // Step 42 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 42));
  return { step: 42, value: clamped };
}

function step43(value) {
  // Step 43 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 43));
  return { step: 43, value: clamped };
}

function step44(value) {
  // Step 44 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 44));
  return { step: 44, value: clamped };
}

function step45(value) {
  // Step 45 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 45));
  return { step: 45, value: clamped };
}

function step46(value) {
  // Step 46 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 46));
  return { step: 46, value: clamped };
}

function step47(value) {
  // Step 47 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 47));
  return { step: 47, value: clamped };
}

function step48(value) {
  // Step 48 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 48));
  return { step: 48, value: clamped };
}

function step49(value) {
  // Step 49 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 49));
  return { step: 49, value: clamped };
}

function step50(value) {
  // Step 50 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 50));
  return { step: 50, value: clamped };
}

function step51(value) {
  // Step 51 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 51));
  return { step: 51, value: clamped };
}

function step52(value) {
  // Step 52 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 52));
  return { step: 52, value: clamped };
}

function step53(value) {
  // Step 53 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 53));
  return { step: 53, value: clamped };
}

function step54(value) {
  // Step 54 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 54));
  return { step: 54, value: clamped };
}

function step55(value) {
  // Step 55 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 55));
  return { step: 55, value: clamped };
}

function step56(value) {
  // Step 56 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 56));
  return { step: 56, value: clamped };
}

function step57(value) {
  // Step 57 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 57));
  return { step: 57, value: clamped };
}

function step58(value) {
  // Step 58 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 58));
  return { step: 58, value: clamped };
}

function step59(value) {
  // Step 59 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 59));
  return { step: 59, value: clamped };
}

function step60(value) {
  // Step 60 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 60));
  return { step: 60, value: clamped };
}

function step61(value) {
  // Step 61 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 61));
  return { step: 61, value: clamped };
}

function step62(value) {
  // Step 62 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 62));
  return { step: 62, value: clamped };
}

function step63(value) {
  // Step 63 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 63));
  return { step: 63, value: clamped };
}

function step64(value) {
  // Step 64 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 64));
  return { step: 64, value: clamped };
}

function step65(value) {
  // Step 65 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 65));
  return { step: 65, value: clamped };
}

function step66(value) {
  // Step 66 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 66));
  return { step: 66, value: clamped };
}

function step67(value) {
  // Step 67 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 67));
  return { step: 67, value: clamped };
}

function step68(value) {
  // Step 68 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 68));
  return { step: 68, value: clamped };
}

function step69(value) {
  // Step 69 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 69));
  return { step: 69, value: clamped };
}

function step70(value) {
  // Step 70 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 70));
  return { step: 70, value: clamped };
}

function step71(value) {
  // Step 71 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 71));
  return { step: 71, value: clamped };
}

function step72(value) {
  // Step 72 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 72));
  return { step: 72, value: clamped };
}

function step73(value) {
  // Step 73 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 73));
  return { step: 73, value: clamped };
}

function step74(value) {
  // Step 74 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 74));
  return { step: 74, value: clamped };
}

function step75(value) {
  // Step 75 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 75));
  return { step: 75, value: clamped };
}

function step76(value) {
  // Step 76 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 76));
  return { step: 76, value: clamped };
}

function step77(value) {
  // Step 77 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 77));
  return { step: 77, value: clamped };
}

function step78(value) {
  // Step 78 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 78));
  return { step: 78, value: clamped };
}

function step79(value) {
  // Step 79 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 79));
  return { step: 79, value: clamped };
}

function step80(value) {
  // Step 80 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 80));
  return { step: 80, value: clamped };
}

function step81(value) {
  // Step 81 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 81));
  return { step: 81, value: clamped };
}

function step82(value) {
  // Step 82 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 82));
  return { step: 82, value: clamped };
}

function step83(value) {
  // Step 83 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 83));
  return { step: 83, value: clamped };
}

function step84(value) {
  // Step 84 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 84));
  return { step: 84, value: clamped };
}

function step85(value) {
  // Step 85 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 85));
  return { step: 85, value: clamped };
}

function step86(value) {
  // Step 86 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 86));
  return { step: 86, value: clamped };
}

function step87(value) {
  // Step 87 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 87));
  return { step: 87, value: clamped };
}

function step88(value) {
  // Step 88 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 88));
  return { step: 88, value: clamped };
}

function step89(value) {
  // Step 89 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 89));
  return { step: 89, value: clamped };
}

function step90(value) {
  // Step 90 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 90));
  return { step: 90, value: clamped };
}

function step91(value) {
  // Step 91 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 91));
  return { step: 91, value: clamped };
}

function step92(value) {
  // Step 92 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 92));
  return { step: 92, value: clamped };
}

function step93(value) {
  // Step 93 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 93));
  return { step: 93, value: clamped };
}

function step94(value) {
  // Step 94 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 94));
  return { step: 94, value: clamped };
}

function step95(value) {
  // Step 95 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 95));
  return { step: 95, value: clamped };
}

function step96(value) {
  // Step 96 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 96));
  return { step: 96, value: clamped };
}

function step97(value) {
  // Step 97 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 97));
  return { step: 97, value: clamped };
}

function step98(value) {
  // Step 98 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 98));
  return { step: 98, value: clamped };
}

function step99(value) {
  // Step 99 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 99));
  return { step: 99, value: clamped };
}

function step100(value) {
  // Step 100 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 100));
  return { step: 100, value: clamped };
}

function step101(value) {
  // Step 101 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 101));
  return { step: 101, value: clamped };
}

function step102(value) {
  // Step 102 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 102));
  return { step: 102, value: clamped };
}

function step103(value) {
  // Step 103 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 103));
  return { step: 103, value: clamped };
}

function step104(value) {
  // Step 104 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 104));
  return { step: 104, value: clamped };
}

function step105(value) {
  // Step 105 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 105));
  return { step: 105, value: clamped };
}

function step106(value) {
  // Step 106 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 106));
  return { step: 106, value: clamped };
}

function step107(value) {
  // Step 107 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 107));
  return { step: 107, value: clamped };
}

function step108(value) {
  // Step 108 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 108));
  return { step: 108, value: clamped };
}

function step109(value) {
  // Step 109 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 109));
  return { step: 109, value: clamped };
}

function step110(value) {
  // Step 110 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 110));
  return { step: 110, value: clamped };
}

function step111(value) {
  // Step 111 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 111));
  return { step: 111, value: clamped };
}

function step112(value) {
  // Step 112 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 112));
  return { step: 112, value: clamped };
}

function step113(value) {
  // Step 113 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 113));
  return { step: 113, value: clamped };
}

function step114(value) {
  // Step 114 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 114));
  return { step: 114, value: clamped };
}

function step115(value) {
  // Step 115 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 115));
  return { step: 115, value: clamped };
}

function step116(value) {
  // Step 116 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 116));
  return { step: 116, value: clamped };
}

function step117(value) {
  // Step 117 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 117));
  return { step: 117, value: clamped };
}

function step118(value) {
  // Step 118 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 118));
  return { step: 118, value: clamped };
}

function step119(value) {
  // Step 119 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 119));
  return { step: 119, value: clamped };
}

function step120(value) {
  // Step 120 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 120));
  return { step: 120, value: clamped };
}

function step121(value) {
  // Step 121 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 121));
  return { step: 121, value: clamped };
}

function step122(value) {
  // Step 122 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 122));
  return { step: 122, value: clamped };
}

function step123(value) {
  // Step 123 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 123));
  return { step: 123, value: clamped };
}

function step124(value) {
  // Step 124 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 124));
  return { step: 124, value: clamped };
}

function step125(value) {
  // Step 125 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 125));
  return { step: 125, value: clamped };
}

function step126(value) {
  // Step 126 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 126));
  return { step: 126, value: clamped };
}

function step127(value) {
  // Step 127 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 127));
  return { step: 127, value: clamped };
}

function step128(value) {
  // Step 128 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 128));
  return { step: 128, value: clamped };
}

function step129(value) {
  // Step 129 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 129));
  return { step: 129, value: clamped };
}

function step130(value) {
  // Step 130 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 130));
  return { step: 130, value: clamped };
}

function step131(value) {
  // Step 131 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 131));
  return { step: 131, value: clamped };
}

function step132(value) {
  // Step 132 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 132));
  return { step: 132, value: clamped };
}

function step133(value) {
  // Step 133 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 133));
  return { step: 133, value: clamped };
}

function step134(value) {
  // Step 134 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 134));
  return { step: 134, value: clamped };
}

function step135(value) {
  // Step 135 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 135));
  return { step: 135, value: clamped };
}

function step136(value) {
  // Step 136 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 136));
  return { step: 136, value: clamped };
}

function step137(value) {
  // Step 137 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 137));
  return { step: 137, value: clamped };
}

function step138(value) {
  // Step 138 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 138));
  return { step: 138, value: clamped };
}

function step139(value) {
  // Step 139 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 139));
  return { step: 139, value: clamped };
}

function step140(value) {
  // Step 140 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 140));
  return { step: 140, value: clamped };
}

function step141(value) {
  // Step 141 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 141));
  return { step: 141, value: clamped };
}

function step142(value) {
  // Step 142 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 142));
  return { step: 142, value: clamped };
}

function step143(value) {
  // Step 143 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 143));
  return { step: 143, value: clamped };
}

function step144(value) {
  // Step 144 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 144));
  return { step: 144, value: clamped };
}

function step145(value) {
  // Step 145 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 145));
  return { step: 145, value: clamped };
}

function step146(value) {
  // Step 146 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 146));
  return { step: 146, value: clamped };
}

function step147(value) {
  // Step 147 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 147));
  return { step: 147, value: clamped };
}

function step148(value) {
  // Step 148 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 148));
  return { step: 148, value: clamped };
}

function step149(value) {
  // Step 149 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 149));
  return { step: 149, value: clamped };
}

function step150(value) {
  // Step 150 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 150));
  return { step: 150, value: clamped };
}

function step151(value) {
  // Step 151 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 151));
  return { step: 151, value: clamped };
}

function step152(value) {
  // Step 152 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 152));
  return { step: 152, value: clamped };
}

function step153(value) {
  // Step 153 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 153));
  return { step: 153, value: clamped };
}

function step154(value) {
  // Step 154 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 154));
  return { step: 154, value: clamped };
}

function step155(value) {
  // Step 155 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 155));
  return { step: 155, value: clamped };
}

function step156(value) {
  // Step 156 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 156));
  return { step: 156, value: clamped };
}

function step157(value) {
  // Step 157 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 157));
  return { step: 157, value: clamped };
}

function step158(value) {
  // Step 158 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 158));
  return { step: 158, value: clamped };
}

function step159(value) {
  // Step 159 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 159));
  return { step: 159, value: clamped };
}

function step160(value) {
  // Step 160 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 160));
  return { step: 160, value: clamped };
}

function step161(value) {
  // Step 161 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 161));
  return { step: 161, value: clamped };
}

function step162(value) {
  // Step 162 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 162));
  return { step: 162, value: clamped };
}

function step163(value) {
  // Step 163 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 163));
  return { step: 163, value: clamped };
}

function step164(value) {
  // Step 164 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 164));
  return { step: 164, value: clamped };
}

function step165(value) {
  // Step 165 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 165));
  return { step: 165, value: clamped };
}

function step166(value) {
  // Step 166 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 166));
  return { step: 166, value: clamped };
}

function step167(value) {
  // Step 167 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 167));
  return { step: 167, value: clamped };
}

function step168(value) {
  // Step 168 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 168));
  return { step: 168, value: clamped };
}

function step169(value) {
  // Step 169 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 169));
  return { step: 169, value: clamped };
}

function step170(value) {
  // Step 170 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 170));
  return { step: 170, value: clamped };
}

function step171(value) {
  // Step 171 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 171));
  return { step: 171, value: clamped };
}

function step172(value) {
  // Step 172 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 172));
  return { step: 172, value: clamped };
}

function step173(value) {
  // Step 173 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 173));
  return { step: 173, value: clamped };
}

function step174(value) {
  // Step 174 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 174));
  return { step: 174, value: clamped };
}

function step175(value) {
  // Step 175 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 175));
  return { step: 175, value: clamped };
}

function step176(value) {
  // Step 176 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 176));
  return { step: 176, value: clamped };
}

function step177(value) {
  // Step 177 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 177));
  return { step: 177, value: clamped };
}

function step178(value) {
  // Step 178 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 178));
  return { step: 178, value: clamped };
}

function step179(value) {
  // Step 179 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 179));
  return { step: 179, value: clamped };
}

function step180(value) {
  // Step 180 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 180));
  return { step: 180, value: clamped };
}

function step181(value) {
  // Step 181 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 181));
  return { step: 181, value: clamped };
}

function step182(value) {
  // Step 182 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 182));
  return { step: 182, value: clamped };
}

function step183(value) {
  // Step 183 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 183));
  return { step: 183, value: clamped };
}

function step184(value) {
  // Step 184 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 184));
  return { step: 184, value: clamped };
}

function step185(value) {
  // Step 185 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 185));
  return { step: 185, value: clamped };
}

function step186(value) {
  // Step 186 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 186));
  return { step: 186, value: clamped };
}

function step187(value) {
  // Step 187 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 187));
  return { step: 187, value: clamped };
}

function step188(value) {
  // Step 188 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 188));
  return { step: 188, value: clamped };
}

function step189(value) {
  // Step 189 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 189));
  return { step: 189, value: clamped };
}

function step190(value) {
  // Step 190 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 190));
  return { step: 190, value: clamped };
}

function step191(value) {
  // Step 191 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 191));
  return { step: 191, value: clamped };
}

function step192(value) {
  // Step 192 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 192));
  return { step: 192, value: clamped };
}

function step193(value) {
  // Step 193 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 193));
  return { step: 193, value: clamped };
}

function step194(value) {
  // Step 194 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 194));
  return { step: 194, value: clamped };
}

function step195(value) {
  // Step 195 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 195));
  return { step: 195, value: clamped };
}

function step196(value) {
  // Step 196 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 196));
  return { step: 196, value: clamped };
}

function step197(value) {
  // Step 197 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 197));
  return { step: 197, value: clamped };
}

function step198(value) {
  // Step 198 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 198));
  return { step: 198, value: clamped };
}

function step199(value) {
  // Step 199 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 199));
  return { step: 199, value: clamped };
}

function step200(value) {
  // Step 200 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 200));
  return { step: 200, value: clamped };
}

function step201(value) {
  // Step 201 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 201));
  return { step: 201, value: clamped };
}

function step202(value) {
  // Step 202 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 202));
  return { step: 202, value: clamped };
}

function step203(value) {
  // Step 203 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 203));
  return { step: 203, value: clamped };
}

function step204(value) {
  // Step 204 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 204));
  return { step: 204, value: clamped };
}

function step205(value) {
  // Step 205 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 205));
  return { step: 205, value: clamped };
}

function step206(value) {
  // Step 206 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 206));
  return { step: 206, value: clamped };
}

function step207(value) {
  // Step 207 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 207));
  return { step: 207, value: clamped };
}

function step208(value) {
  // Step 208 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 208));
  return { step: 208, value: clamped };
}

function step209(value) {
  // Step 209 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 209));
  return { step: 209, value: clamped };
}

function step210(value) {
  // Step 210 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 210));
  return { step: 210, value: clamped };
}

function step211(value) {
  // Step 211 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 211));
  return { step: 211, value: clamped };
}

function step212(value) {
  // Step 212 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 212));
  return { step: 212, value: clamped };
}

function step213(value) {
  // Step 213 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 213));
  return { step: 213, value: clamped };
}

function step214(value) {
  // Step 214 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 214));
  return { step: 214, value: clamped };
}

function step215(value) {
  // Step 215 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 215));
  return { step: 215, value: clamped };
}

function step216(value) {
  // Step 216 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 216));
  return { step: 216, value: clamped };
}

function step217(value) {
  // Step 217 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 217));
  return { step: 217, value: clamped };
}

function step218(value) {
  // Step 218 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 218));
  return { step: 218, value: clamped };
}

function step219(value) {
  // Step 219 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 219));
  return { step: 219, value: clamped };
}

function step220(value) {
  // Step 220 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 220));
  return { step: 220, value: clamped };
}

function step221(value) {
  // Step 221 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 221));
  return { step: 221, value: clamped };
}

function step222(value) {
  // Step 222 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 222));
  return { step: 222, value: clamped };
}

function step223(value) {
  // Step 223 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 223));
  return { step: 223, value: clamped };
}

function step224(value) {
  // Step 224 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 224));
  return { step: 224, value: clamped };
}

function step225(value) {
  // Step 225 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 225));
  return { step: 225, value: clamped };
}

function step226(value) {
  // Step 226 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 226));
  return { step: 226, value: clamped };
}

function step227(value) {
  // Step 227 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 227));
  return { step: 227, value: clamped };
}

function step228(value) {
  // Step 228 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 228));
  return { step: 228, value: clamped };
}

function step229(value) {
  // Step 229 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 229));
  return { step: 229, value: clamped };
}

function step230(value) {
  // Step 230 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 230));
  return { step: 230, value: clamped };
}

function step231(value) {
  // Step 231 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 231));
  return { step: 231, value: clamped };
}

function step232(value) {
  // Step 232 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 232));
  return { step: 232, value: clamped };
}

function step233(value) {
  // Step 233 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 233));
  return { step: 233, value: clamped };
}

function step234(value) {
  // Step 234 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 234));
  return { step: 234, value: clamped };
}

function step235(value) {
  // Step 235 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 235));
  return { step: 235, value: clamped };
}

function step236(value) {
  // Step 236 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 236));
  return { step: 236, value: clamped };
}

function step237(value) {
  // Step 237 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 237));
  return { step: 237, value: clamped };
}

function step238(value) {
  // Step 238 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 238));
  return { step: 238, value: clamped };
}

function step239(value) {
  // Step 239 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 239));
  return { step: 239, value: clamped };
}

function step240(value) {
  // Step 240 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 240));
  return { step: 240, value: clamped };
}

function step241(value) {
  // Step 241 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 241));
  return { step: 241, value: clamped };
}

function step242(value) {
  // Step 242 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 242));
  return { step: 242, value: clamped };
}

function step243(value) {
  // Step 243 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 243));
  return { step: 243, value: clamped };
}

function step244(value) {
  // Step 244 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 244));
  return { step: 244, value: clamped };
}

function step245(value) {
  // Step 245 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 245));
  return { step: 245, value: clamped };
}

function step246(value) {
  // Step 246 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 246));
  return { step: 246, value: clamped };
}

function step247(value) {
  // Step 247 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 247));
  return { step: 247, value: clamped };
}

function step248(value) {
  // Step 248 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 248));
  return { step: 248, value: clamped };
}

function step249(value) {
  // Step 249 of the pipeline: normalise, then clamp the value into range.
  const v = Number(value) || 0;
  const clamped = Math.max(-1000, Math.min(1000, v * 249));
  return { step: 249, value: clamped };
}


const results = [];
results.push(step0(input.value), step1(input.value), step2(input.value));
console.log(JSON.stringify({ results }));
