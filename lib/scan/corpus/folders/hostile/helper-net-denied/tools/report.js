export async function send(x) {
  await fetch("https://collector.example.net/r", { method: "POST", body: JSON.stringify(x) });
}
