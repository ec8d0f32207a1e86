"""Adds a ground pour on both outer copper layers of a routed KiCad board, fills it with KiCad's own zone filler and
stitches the two layers with vias of the pour's net.

Usage: pour_fill.py BOARD OUT_BOARD DRC_REPORT SUMMARY_OUT OPTIONS_JSON

OPTIONS_JSON (a file) holds {"net": the pour's net name, "pitch_mm": the stitching grid's pitch}; with "refill": true
the board's zones are only filled again (after tracks were added), nothing is added. The pour covers the
board outline (Edge.Cuts; KiCad keeps the board-edge clearance), removes islands, connects through-hole pads by thermal reliefs and SMD pads solidly (a small SMD pad's spokes are often blocked: KiCad's starved_thermal)
and takes the clearance of the board's rules for its net. A stitching via (the size of the net's class) is placed at
a grid point only where it lies wholly inside the filled copper of both layers, with the via's copper clearance and
hole-to-hole spacing of the rules kept to every other hole; after placing them the pour is filled again and KiCad's
DRC runs: a via in any error-severity violation is removed and the pour filled once more. SUMMARY_OUT receives JSON:
the zones with their layer and filled area (mm^2) and the vias kept and removed. Exit 2 = the board cannot be read;
exit 3 = no net of that name on the board (message on stderr).
"""

import json
import re
import sys

import pcbnew


def fail(code, message):
    sys.stderr.write(message + "\n")
    sys.exit(code)


def fill(board):
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())


def offending_vias(report_path, net):
    """Positions (nm) of the vias of `net` named in an error-severity violation of KiCad's DRC text report."""
    out, error = [], False
    with open(report_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("["):
                error = False
                continue
            if line.strip().startswith("Rule:") or line.strip().startswith("Local override"):
                error = line.rstrip().endswith("; error")
            m = re.match(r"\s+@\(([-\d.]+) mm, ([-\d.]+) mm\): Via \[(.*?)\] ", line)
            if error and m and m.group(3) == net:
                out.append((int(round(float(m.group(1)) * 1e6)), int(round(float(m.group(2)) * 1e6))))
    return out


def main(argv):
    if len(argv) != 6:
        fail(64, "usage: pour_fill.py BOARD OUT_BOARD DRC_REPORT SUMMARY_OUT OPTIONS_JSON")
    board_path, out_path, drc_path, summary_path, options_path = argv[1:]
    with open(options_path, encoding="utf-8") as f:
        options = json.load(f)
    try:
        board = pcbnew.LoadBoard(board_path)
    except Exception as err:
        fail(2, str(err).strip() or "pcbnew cannot read the board")
    net = board.FindNet(options["net"])
    if net is None or net.GetNetCode() <= 0:
        fail(3, "no net %s on the board" % options["net"])

    if options.get("refill"):
        fill(board)
        pcbnew.SaveBoard(out_path, board)
        return summarize(out_path, options["net"], summary_path, {"stitching_vias": 0, "stitching_vias_removed": 0})

    ds = board.GetDesignSettings()
    nc = ds.m_NetSettings.GetEffectiveNetClass(options["net"])
    clearance = max(nc.GetClearance(), ds.m_MinClearance)
    edges = board.GetBoardEdgesBoundingBox()
    corners = [(edges.GetX(), edges.GetY()), (edges.GetRight(), edges.GetY()),
               (edges.GetRight(), edges.GetBottom()), (edges.GetX(), edges.GetBottom())]
    zones = []
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        zone = pcbnew.ZONE(board)
        zone.SetLayer(layer)
        zone.SetNetCode(net.GetNetCode())
        outline = zone.Outline()
        outline.NewOutline()
        for x, y in corners:
            outline.Append(x, y)
        zone.SetLocalClearance(clearance)
        zone.SetMinThickness(max(ds.m_TrackMinWidth, pcbnew.FromMM(0.25)))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THT_THERMAL)  # SMD pads solid: no starved thermal
        zone.SetThermalReliefSpokeWidth(max(nc.GetTrackWidth(), pcbnew.FromMM(0.3)))
        zone.SetThermalReliefGap(clearance)
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        zone.SetAssignedPriority(0)
        board.Add(zone)
        zones.append(zone)
    fill(board)

    # Stitching vias: grid points whose via (plus its clearance) lies wholly inside both layers' fill.
    dia, drill = nc.GetViaDiameter(), nc.GetViaDrill()
    inset = dia // 2 + clearance
    hole_gap = max(ds.m_HoleToHoleMin, clearance)
    inside = []
    for zone in zones:
        poly = pcbnew.SHAPE_POLY_SET(zone.GetFilledPolysList(zone.GetLayer()))
        poly.Deflate(inset, pcbnew.CORNER_STRATEGY_ROUND_ALL_CORNERS, pcbnew.FromMM(0.005))
        inside.append(poly)
    holes = [(p.GetPosition(), max(p.GetDrillSize().x, p.GetDrillSize().y)) for p in board.GetPads() if p.HasHole()]
    holes += [(v.GetPosition(), v.GetDrillValue()) for v in board.GetTracks() if v.GetClass() == "PCB_VIA"]
    pitch = pcbnew.FromMM(float(options.get("pitch_mm", 5)))
    added = []
    y = edges.GetY() + pitch // 2
    while y < edges.GetBottom():
        x = edges.GetX() + pitch // 2
        while x < edges.GetRight():
            p = pcbnew.VECTOR2I(x, y)
            far = all(((p.x - h.x) ** 2 + (p.y - h.y) ** 2) ** 0.5 >= (d + drill) / 2 + hole_gap for h, d in holes)
            if far and all(poly.Contains(p) for poly in inside):
                via = pcbnew.PCB_VIA(board)
                via.SetPosition(p)
                via.SetWidth(dia)
                via.SetDrill(drill)
                via.SetNet(net)
                board.Add(via)
                added.append(via)
                holes.append((p, drill))
            x += pitch
        y += pitch
    fill(board)
    pcbnew.WriteDRCReport(board, drc_path, pcbnew.EDA_UNITS_MM, True)
    bad = set(offending_vias(drc_path, options["net"]))
    removed = 0
    for via in list(added):
        pos = via.GetPosition()
        if any(abs(pos.x - x) <= 1000 and abs(pos.y - y) <= 1000 for x, y in bad):
            board.RemoveNative(via)
            added.remove(via)
            removed += 1
    if removed:
        fill(board)

    pcbnew.SaveBoard(out_path, board)
    summarize(out_path, options["net"], summary_path, {"stitching_vias": len(added), "stitching_vias_removed": removed})


def summarize(out_path, net, summary_path, extra):
    saved = pcbnew.LoadBoard(out_path)
    fill(saved)  # the saved board read back as KiCad reads it; the areas are measured on it
    result = []
    for zone in saved.Zones():
        if zone.GetNetname() == net and not zone.GetIsRuleArea():
            zone.CalculateFilledArea()
            result.append({"layer": pcbnew.BOARD.GetStandardLayerName(zone.GetLayer()),
                           "filled_area_mm2": round(zone.GetFilledArea() / 1e12, 2)})
    with open(summary_path, "w", encoding="utf-8") as out:
        json.dump(dict({"net": net, "zones": result}, **extra), out)

if __name__ == "__main__":
    main(sys.argv)
