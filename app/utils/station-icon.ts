/** The station's icon: the configured logo, else the generated badge in the accent colour (routes/station-icon[.]svg). */
export function stationIconUrl(station: { logoUrl: string | null }): string {
  return station.logoUrl ?? "/station-icon.svg";
}
