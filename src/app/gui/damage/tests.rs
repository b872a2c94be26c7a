use super::*;
use egui::epaint::Shape;
use egui::{Color32, CornerRadius};

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
fn a_change_over_half_the_window_or_in_many_places_paints_it_whole() {
    let mut moved = ui();
    moved[0] = rect(0.0, 0.0, 1280.0, 720.0, Color32::DARK_GRAY);
    assert_eq!(between(&ui(), &moved, 1.0, SIZE), Damage::Whole);
    let dots = |c: Color32| -> Vec<ClippedShape> {
        (0..20)
            .map(|i| rect(i as f32 * 50.0, 300.0, 4.0, 4.0, c))
            .collect()
    };
    let (old, new) = (dots(Color32::RED), dots(Color32::BLUE));
    assert_eq!(between(&old, &new, 1.0, SIZE), Damage::Whole);
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
