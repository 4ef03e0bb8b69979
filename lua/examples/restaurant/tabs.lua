-- The tab bar of the restaurant: one tab per menu, in the order the demo showed them
-- (Breakfast, Lunch, Dinner, Dessert, About), then the staff contacts, each with the title its
-- tab bar shows before the screen is made. Menu 5 must stay the About menu: the about pages
-- name it as their parent.
return {
  { "Breakfast", "tt://menu/1" },
  { "Lunch", "tt://menu/2" },
  { "Dinner", "tt://menu/3" },
  { "Dessert", "tt://menu/4" },
  { "About", "tt://menu/5" },
  { "Contacts", "tt://contacts" },
}
