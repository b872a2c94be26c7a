use super::*;
use egui::epaint::Shape;
use egui::{Color32, CornerRadius, FontId};

const SIZE: [u32; 2] = [1280, 720];

/// A filled rectangle from (x, y) to (x + w, y + h) points, clipped to the screen.
fn rect(x: f32, y: f32, w: f32, h: f32, colour: Color32) -> ClippedShape {
    let at = Rect::from_min_size(Pos2::new(x, y), egui::vec2(w, h));
    ClippedShape {
        clip_rect: Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 720.0)),
        shape: Shape::rect_filled(at, CornerRadius::ZERO, colour),
    }
}

/// A panel, a HUD and two figures, as the window's UI is.
fn ui() -> Vec<ClippedShape> {
    vec![
        rect(980.0, 0.0, 300.0, 720.0, Color32::DARK_GRAY),
        rect(8.0, 8.0, 600.0, 40.0, Color32::BLACK),
        rect(20.0, 20.0, 40.0, 12.0, Color32::WHITE),
        rect(100.0, 600.0, 40.0, 12.0, Color32::WHITE),
    ]
}

#[test]
fn the_same_shapes_paint_nothing_again() {
    assert_eq!(between(&ui(), &ui(), 1.0, SIZE), Damage::None);
    assert_eq!(between(&[], &[], 1.0, SIZE), Damage::None);
}

#[test]
fn a_changed_figure_paints_its_own_rectangle_widened_by_the_feathering() {
    let mut new = ui();
    new[2] = rect(20.0, 20.0, 40.0, 12.0, Color32::RED);
    let expected = PxRect {
        x: 18,
        y: 18,
        w: 44,
        h: 16,
    };
    assert_eq!(
        between(&ui(), &new, 1.0, SIZE),
        Damage::Rects(vec![expected])
    );
    // At two pixels a point, twice the pixels (and the same feathering).
    let doubled = PxRect {
        x: 38,
        y: 38,
        w: 84,
        h: 28,
    };
    let damage = between(&ui(), &new, 2.0, [2560, 1440]);
    assert_eq!(damage, Damage::Rects(vec![doubled]));
}

#[test]
fn a_figure_that_moved_paints_where_it_was_and_where_it_is() {
    let mut new = ui();
    new[3] = rect(300.0, 600.0, 40.0, 12.0, Color32::WHITE);
    let Damage::Rects(mut rects) = between(&ui(), &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    rects.sort_by_key(|r| r.x);
    assert_eq!(rects.len(), 2, "{rects:?}");
    assert_eq!((rects[0].x, rects[1].x), (98, 298));
}

#[test]
fn a_shape_added_or_taken_away_paints_only_its_rectangle() {
    let mut new = ui();
    new.insert(2, rect(700.0, 300.0, 100.0, 30.0, Color32::YELLOW));
    let tooltip = PxRect {
        x: 698,
        y: 298,
        w: 104,
        h: 34,
    };
    assert_eq!(
        between(&ui(), &new, 1.0, SIZE),
        Damage::Rects(vec![tooltip])
    );
    assert_eq!(
        between(&new, &ui(), 1.0, SIZE),
        Damage::Rects(vec![tooltip])
    );
}

#[test]
fn a_shape_added_while_figures_change_around_it_paints_only_those() {
    let backdrop = rect(0.0, 0.0, 1000.0, 600.0, Color32::BLACK);
    let figure = |x: f32, c| rect(x, 650.0, 40.0, 12.0, c);
    let old = vec![
        figure(20.0, Color32::WHITE),
        backdrop.clone(),
        figure(300.0, Color32::WHITE),
    ];
    let added = rect(500.0, 100.0, 100.0, 30.0, Color32::YELLOW);
    let new = vec![
        figure(20.0, Color32::RED),
        backdrop,
        added,
        figure(300.0, Color32::RED),
    ];
    let Damage::Rects(mut rects) = between(&old, &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    rects.sort_by_key(|r| r.x);
    let xs: Vec<u32> = rects.iter().map(|r| r.x).collect();
    assert_eq!(xs, [18, 298, 498], "{rects:?}");
}

/// `text` at (x, 300) points, laid out by egui in monospace, clipped to the screen.
fn text(x: f32, text: &str) -> ClippedShape {
    let ctx = egui::Context::default();
    let mut shape = None;
    let _ = ctx.run_ui(egui::RawInput::default(), |ui| {
        let font = FontId::monospace(13.0);
        let galley = ui
            .painter()
            .layout_no_wrap(text.to_owned(), font, Color32::WHITE);
        shape = Some(Shape::galley(Pos2::new(x, 300.0), galley, Color32::WHITE));
    });
    ClippedShape {
        clip_rect: Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 720.0)),
        shape: shape.expect("a frame ran"),
    }
}

#[test]
fn a_text_with_no_glyph_paints_nothing_wherever_it_goes() {
    // epaint's bounds of an empty text are infinite: taken as they are, every frame that
    // moved one painted the whole window again.
    for blank in ["", "  "] {
        let (old, new) = ([text(100.0, blank)], [text(400.0, blank)]);
        assert_eq!(between(&old, &new, 1.0, SIZE), Damage::None, "{blank:?}");
        assert!(
            clipped_to(
                &new,
                &[PxRect {
                    x: 0,
                    y: 0,
                    w: 9,
                    h: 9
                }],
                1.0
            )
            .is_empty()
        );
    }
    let (old, new) = ([text(100.0, "12.5 ms")], [text(100.0, "12.6 ms")]);
    let Damage::Rects(rects) = between(&old, &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    assert_eq!(rects.len(), 1, "{rects:?}");
    assert!(rects[0].x >= 98 && rects[0].w < 80, "{rects:?}");
}

#[test]
fn rectangles_that_touch_are_painted_as_one() {
    let mut new = ui();
    new[2] = rect(20.0, 20.0, 40.0, 12.0, Color32::RED);
    new.insert(3, rect(62.0, 20.0, 10.0, 12.0, Color32::RED));
    let Damage::Rects(rects) = between(&ui(), &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    assert_eq!(rects.len(), 1, "{rects:?}");
    assert_eq!((rects[0].x, rects[0].w), (18, 56));
}

#[test]
fn a_change_over_half_the_window_paints_it_whole() {
    let mut moved = ui();
    moved[0] = rect(0.0, 0.0, 1280.0, 720.0, Color32::DARK_GRAY);
    assert_eq!(between(&ui(), &moved, 1.0, SIZE), Damage::Whole);
}

#[test]
fn changes_in_many_places_merge_the_closest_rectangles_first() {
    let dots = |n: usize, c: Color32| -> Vec<ClippedShape> {
        (0..n)
            .map(|i| rect(i as f32 * 50.0, 300.0, 4.0, 4.0, c))
            .collect()
    };
    let (old, new) = (dots(16, Color32::RED), dots(16, Color32::BLUE));
    let Damage::Rects(rects) = between(&old, &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    assert_eq!(rects.len(), 16);
    // A 17th: the two whose union wastes the fewest pixels become one (the first two, whose
    // gap is the narrowest, the first being cut at the window's edge).
    let (old, new) = (dots(17, Color32::RED), dots(17, Color32::BLUE));
    let Damage::Rects(rects) = between(&old, &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    assert_eq!(rects.len(), 16, "{rects:?}");
    let first_two = PxRect {
        x: 0,
        y: 298,
        w: 56,
        h: 8,
    };
    assert!(rects.contains(&first_two), "{rects:?}");
    // Rectangles spread over the window merge as they must, not into one.
    let (old, new) = (dots(25, Color32::RED), dots(25, Color32::BLUE));
    let Damage::Rects(rects) = between(&old, &new, 1.0, SIZE) else {
        panic!("rectangles expected");
    };
    assert_eq!(rects.len(), 16, "{rects:?}");
}

#[test]
fn a_shape_off_the_target_or_clipped_away_paints_nothing() {
    let mut new = ui();
    new.push(rect(2000.0, 900.0, 10.0, 10.0, Color32::RED));
    let mut clipped = rect(100.0, 100.0, 10.0, 10.0, Color32::RED);
    clipped.clip_rect = Rect::from_min_size(Pos2::new(500.0, 500.0), egui::vec2(5.0, 5.0));
    new.push(clipped);
    assert_eq!(between(&ui(), &new, 1.0, SIZE), Damage::None);
}

#[test]
fn the_shapes_to_paint_again_are_those_that_reach_the_rectangles_clipped_to_them() {
    let rects = [PxRect {
        x: 18,
        y: 18,
        w: 44,
        h: 16,
    }];
    let shapes = clipped_to(&ui(), &rects, 1.0);
    // The HUD's background and the figure on it; not the panel, nor the far label.
    assert_eq!(shapes.len(), 2, "{shapes:?}");
    let clip = Rect::from_min_size(Pos2::new(18.0, 18.0), egui::vec2(44.0, 16.0));
    assert!(shapes.iter().all(|s| s.clip_rect == clip));
    assert_eq!(shapes[0].shape, ui()[1].shape);
    assert_eq!(shapes[1].shape, ui()[2].shape);
    // A shape whose feathered edge reaches a rectangle is painted there too.
    let edge = [PxRect {
        x: 61,
        y: 20,
        w: 10,
        h: 10,
    }];
    assert_eq!(clipped_to(&ui()[2..3], &edge, 1.0).len(), 1);
    assert_eq!(Damage::Rects(rects.to_vec()).area(SIZE), 44 * 16);
    assert_eq!(Damage::Whole.area(SIZE), 1280 * 720);
}
