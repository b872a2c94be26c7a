//! Charts for `sweep --plot` and `simulate --plot`, drawn with plotters into an SVG or a PNG
//! (chosen by the file's extension). Text uses a bundled font (DejaVu Sans, a Latin subset in
//! `assets/fonts/`), so a PNG looks the same on a machine with no fonts installed.

mod frames;
mod sweep;

pub use frames::plot_frames;
pub use sweep::plot_sweep;

use crate::pending::PendingFile;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::io::Write;
use std::path::Path;
use std::sync::Once;

/// The plot's font family, registered from [`FONT`].
const FAMILY: &str = "sans-serif";
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// Tableau 10, then darker variants: colours that stay apart for up to 20 lanes.
const PALETTE: [(u8, u8, u8); 20] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
    (16, 60, 90),
    (128, 64, 7),
    (22, 80, 22),
    (107, 20, 20),
    (74, 52, 95),
    (70, 43, 38),
    (114, 60, 97),
    (64, 64, 64),
    (94, 95, 17),
    (12, 95, 104),
];

/// Lane `i`'s colour.
fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The file kinds a plot can be written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format `path`'s extension names, or an error naming the extensions accepted.
    pub fn of(path: &Path) -> Result<Format, UnknownFormat> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(UnknownFormat(path.display().to_string())),
        }
    }
}

/// Checks a plot's extension and creates its file (see [`PendingFile`]) before anything runs;
/// the plot is drawn into it at the end.
pub fn create(path: &Path) -> Result<PendingFile, PlotError> {
    Format::of(path)?;
    PendingFile::create(path).map_err(|e| PlotError::Create(path.display().to_string(), e))
}

/// A plot's path whose extension names no format a plot is written in.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' must end in .svg or .png")]
pub struct UnknownFormat(String);

/// Why a plot was not made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error(transparent)]
    Format(#[from] UnknownFormat),
    /// The file (first) could not be created.
    #[error("cannot write '{0}': {1}")]
    Create(String, #[source] std::io::Error),
    /// plotters could not draw, or the PNG encoder could not encode, in its words.
    #[error("{0}")]
    Draw(String),
    #[error("empty plot size")]
    EmptySize,
    #[error("bad plot buffer")]
    BadBuffer,
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// Something that draws itself on any plotters backend.
trait Figure {
    /// Pixels across and down.
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>;
}

/// Draws `figure` and writes it into `out` as its path's extension says.
fn render(out: &mut PendingFile, figure: &impl Figure) -> Result<(), PlotError> {
    register_font();
    let size = figure.size();
    let bytes = match Format::of(out.path())? {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                figure.draw(&root)?;
                root.present().map_err(|e| PlotError::Draw(e.to_string()))?;
            }
            svg.into_bytes()
        }
        Format::Png => {
            let (w, h) = size;
            let mut rgb = vec![0u8; w as usize * h as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
                figure.draw(&root)?;
                root.present().map_err(|e| PlotError::Draw(e.to_string()))?;
            }
            png(&rgb, size)?
        }
    };
    Ok(out.write_all(&bytes)?)
}

/// An RGB buffer as a PNG (with tiny-skia's encoder, already a dependency).
fn png(rgb: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>, PlotError> {
    let rgba: Vec<u8> = rgb
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let size = tiny_skia::IntSize::from_wh(w, h).ok_or(PlotError::EmptySize)?;
    let pixmap = tiny_skia::Pixmap::from_vec(rgba, size).ok_or(PlotError::BadBuffer)?;
    pixmap
        .encode_png()
        .map_err(|e| PlotError::Draw(e.to_string()))
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is bundled and known good; if it were not, text would be left out, not
        // the plot.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// The page both figures share: white, titled `title`, three panels stacked, and the legend
/// of `names` in a column beside them. Returns the panels, top first.
fn page<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    names: impl Iterator<Item = impl AsRef<str>>,
) -> Result<Vec<DrawingArea<DB, Shift>>, PlotError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, font(24)).map_err(err)?;
    let (w, _) = root.dim_in_pixel();
    let (plots, legend) = root.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
    draw_legend(&legend, names)?;
    Ok(plots.split_evenly((3, 1)))
}

/// The legend as a column of its own beside the panels (a legend inside a panel hides lines):
/// a stroke of each lane's colour and its name.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: impl Iterator<Item = impl AsRef<str>>,
) -> Result<(), PlotError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    for (i, name) in names.enumerate() {
        let y = 60 + 30 * i as i32;
        let stroke = colour(i).stroke_width(4);
        area.draw(&PathElement::new(vec![(8, y), (36, y)], stroke))
            .map_err(err)?;
        area.draw(&Text::new(
            name.as_ref().to_string(),
            (44, y),
            font(18).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// Axis numbers without a pointless ".0": 60, 1000, 2.5, 0.25.
fn tidy(v: &f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Lines of lane `i` of `n`: the first drawn widest, so a later lane that runs over an earlier
/// one leaves its colour showing on both sides; `step` pixels wider per lane below.
fn stroke(i: usize, n: usize, step: u32) -> ShapeStyle {
    let below = n.saturating_sub(i + 1) as u32;
    colour(i).stroke_width((2 + below * step).min(12))
}

/// Width of the legend column, pixels.
const LEGEND_WIDTH: u32 = 230;

/// Text of `px` pixels in the plot font.
fn font(px: u32) -> TextStyle<'static> {
    (FAMILY, px).into_font().into()
}
