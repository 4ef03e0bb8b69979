-- The restaurant's menus, numbered as their tabs are. A menu is a list of sections, each with
-- an optional heading and items; an item is a { label, url } pair, as a table cell shows it.
-- "Just Desserts" and "Complaints" jump across tabs: the dessert menu is shared, and the
-- complaints page always opens inside the About tab.
local DESSERTS = { "Just Desserts", "tt://menu/4" }
local COMPLAINTS = { "Complaints", "tt://about/complaints" }

return {
  [1] = {
    title = "Breakfast",
    sections = {
      { heading = "Food", items = {
        { "Porridge", "tt://food/porridge" },
        { "Bacon & Eggs", "tt://food/baconeggs" },
        { "French Toast", "tt://food/frenchtoast" },
      } },
      { heading = "Drinks", items = {
        { "Coffee", "tt://food/coffee" },
        { "Orange Juice", "tt://food/oj" },
      } },
      { heading = "Other", items = { DESSERTS, COMPLAINTS } },
    },
  },
  [2] = {
    title = "Lunch",
    sections = {
      { heading = "Menu", items = {
        { "Mac & Cheese", "tt://food/macncheese" },
        { "Ham Sandwich", "tt://food/hamsam" },
        { "Salad", "tt://food/salad" },
      } },
      { heading = "Drinks", items = {
        { "Coke", "tt://food/coke" },
        { "Sprite", "tt://food/sprite" },
      } },
      { heading = "Other", items = { DESSERTS, COMPLAINTS } },
    },
  },
  [3] = {
    title = "Dinner",
    sections = {
      { heading = "Appetizers", items = {
        { "Potstickers", "tt://food/potstickers" },
        { "Egg Rolls", "tt://food/eggrolls" },
        { "Buffalo Wings", "tt://food/wings" },
      } },
      { heading = "Entrees", items = {
        { "Steak", "tt://food/steak" },
        { "Chicken Marsala", "tt://food/marsala" },
        { "Cobb Salad", "tt://food/cobbsalad" },
        { "Green Salad", "tt://food/greensalad" },
      } },
      { heading = "Drinks", items = {
        { "Red Wine", "tt://food/redwine" },
        { "White Wine", "tt://food/whitewine" },
        { "Beer", "tt://food/beer" },
        { "Coke", "tt://food/coke" },
        { "Sparkling Water", "tt://food/water" },
      } },
      { heading = "Other", items = { DESSERTS, COMPLAINTS } },
    },
  },
  [4] = {
    title = "Dessert",
    sections = {
      { heading = "Yum", items = {
        { "Chocolate Cake", "tt://food/cake" },
        { "Apple Pie", "tt://food/pie" },
      } },
      { heading = "Other", items = { COMPLAINTS } },
    },
  },
  -- A plain list, no headings. Phone, text and web links leave the app: no route claims
  -- the tel: and sms: schemes, and http goes to the in-app web page.
  [5] = {
    title = "About",
    sections = {
      { items = {
        { "Our Story", "tt://about/story" },
        { "Call Us", "tel:5555555" },
        { "Text Us", "sms:5555555" },
        { "Website", "http://www.melsdrive-in.com" },
        { "Complaints Dept.", "tt://about/complaints" },
        { "Staff", "tt://contacts" },
      } },
    },
  },
}
