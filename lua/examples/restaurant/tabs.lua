-- The tab bar of the restaurant: one tab per menu, in the order the demo showed them
-- (Breakfast, Lunch, Dinner, Dessert, About), then the staff contacts. Menu 5 must stay
-- the About menu: the about pages name it as their parent.
return {
  "tt://menu/1",
  "tt://menu/2",
  "tt://menu/3",
  "tt://menu/4",
  "tt://menu/5",
  "tt://contacts",
}
