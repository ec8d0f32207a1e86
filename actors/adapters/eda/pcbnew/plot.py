"""Gerber, Excellon drill and Gerber job files of one board: `plot.py <board.kicad_pcb> <out_dir>`.

A fixed script of the eda adapter (actors/adapters/eda/pcbnew.ts runs it sandboxed); the board is data, never code.
Plots every copper layer the board enables, F/B mask, silkscreen and paste and Edge.Cuts as Gerber X2 (netlist
attributes on, aperture macros on so pads flash), PTH and NPTH Excellon files (metric, decimal, not merged) and the
job file through KiCad 6's own GERBER_JOBFILE_WRITER, and the pick-and-place file through KiCad's own
PLACE_FILE_EXPORTER (CSV, mm, both sides in one file named as KiCad's dialog names it, <board>-all-pos.csv;
footprints marked "exclude from position files" left out; board origin, the dialog's default). Prints one JSON line
listing the files with their layers, the position file and how many footprints it places.
"""
import json
import os
import sys
import time

board_path, out_dir = sys.argv[1], sys.argv[2]
started = time.perf_counter()
import pcbnew  # noqa: E402

board = pcbnew.LoadBoard(board_path)
if board is None:
    raise SystemExit("pcbnew could not load the board")
loaded = time.perf_counter()
base = os.path.splitext(os.path.basename(board_path))[0]

pc = pcbnew.PLOT_CONTROLLER(board)
po = pc.GetPlotOptions()
po.SetOutputDirectory(out_dir)
po.SetFormat(pcbnew.PLOT_FORMAT_GERBER)
po.SetUseGerberX2format(True)
po.SetUseGerberAttributes(True)
po.SetIncludeGerberNetlistInfo(True)
po.SetDisableGerberMacros(False)
po.SetUseGerberProtelExtensions(False)
po.SetCreateGerberJobFile(True)
po.SetUseAuxOrigin(False)
po.SetPlotFrameRef(False)
po.SetExcludeEdgeLayer(True)
po.SetSubtractMaskFromSilk(False)
po.SetSkipPlotNPTH_Pads(False)
po.SetPlotViaOnMaskLayer(False)
po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
po.SetMirror(False)
po.SetScale(1)
po.SetAutoScale(False)
po.SetNegative(False)
po.SetPlotReference(True)
po.SetPlotValue(True)
po.SetPlotInvisibleText(False)

layers = list(board.GetEnabledLayers().CuStack())
for lid in (
    pcbnew.F_Paste, pcbnew.B_Paste, pcbnew.F_SilkS, pcbnew.B_SilkS,
    pcbnew.F_Mask, pcbnew.B_Mask, pcbnew.Edge_Cuts,
):
    layers.append(lid)

files = []
job = pcbnew.GERBER_JOBFILE_WRITER(board)
for lid in layers:
    name = pcbnew.BOARD.GetStandardLayerName(lid)
    pc.SetLayer(lid)
    pc.OpenPlotfile(name.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, name)
    plotted = pc.PlotLayer()
    path = pc.GetPlotFileName()
    pc.ClosePlot()
    if not plotted:
        raise SystemExit("pcbnew could not plot layer %s" % name)
    job.AddGbrFile(lid, os.path.basename(path))
    files.append({"path": path, "layer": name, "kind": "gerber"})
plotted_at = time.perf_counter()

before = set(os.listdir(out_dir))
drill = pcbnew.EXCELLON_WRITER(board)
drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
drill.SetFormat(True)
drill.CreateDrillandMapFilesSet(out_dir, True, False)
for name in sorted(set(os.listdir(out_dir)) - before):
    if name.endswith(".drl"):
        kind = "NPTH" if name.endswith("-NPTH.drl") else "PTH"
        files.append({"path": os.path.join(out_dir, name), "layer": kind, "kind": "drill"})
drilled_at = time.perf_counter()

job_path = os.path.join(out_dir, base + "-job.gbrjob")
if not job.CreateJobFile(job_path):
    raise SystemExit("pcbnew could not write the Gerber job file")
files.append({"path": job_path, "layer": "", "kind": "job"})

# Pick-and-place: units mm, not SMD-only, through-hole kept, top and bottom, CSV, board origin (not the aux origin).
placer = pcbnew.PLACE_FILE_EXPORTER(board, True, False, False, True, True, True, False)
position_path = os.path.join(out_dir, base + "-all-pos.csv")
with open(position_path, "w", encoding="utf-8", newline="") as f:
    f.write(placer.GenPositionData())
placed_count = placer.GetFootprintCount()
placed_at = time.perf_counter()

print(
    json.dumps(
        {
            "files": files,
            "layer_count": board.GetCopperLayerCount(),
            "kicad_version": pcbnew.Version(),
            "load_ms": round((loaded - started) * 1000, 1),
            "plot_ms": round((plotted_at - loaded) * 1000, 1),
            "drill_ms": round((drilled_at - plotted_at) * 1000, 1),
            "position_file": position_path,
            "placed_count": placed_count,
            "place_ms": round((placed_at - drilled_at) * 1000, 1),
        }
    )
)
