import { listCrewImages } from "~/models/crew.server";

// Every crew slider image, for a slider that shipped only its first page (components/CrewSlider).
export async function loader() {
  return Response.json({ images: await listCrewImages() }, { headers: { "Cache-Control": "no-cache" } });
}
