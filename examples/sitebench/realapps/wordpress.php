<?php
// Installs WordPress for http://127.0.0.1:PORT and populates it from a corpus written by
// corpus.py: one post per article with one revision per corpus revision, categories (the
// article's library), tags (its section headings), six authors, dated posts, threaded comments,
// links between posts (half by permalink, half by ?p=ID), pretty permalinks. Writes the
// permalink of each post, one a line, to ARTICLES. Idempotent: an installed site is left alone.
//
//   php wordpress.php PORT CORPUS.json ARTICLES
[$_, $port, $corpus, $articlesFile] = $argv;
$home = "http://127.0.0.1:$port";
$_SERVER['HTTP_HOST'] = "127.0.0.1:$port";
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['SERVER_PORT'] = $port;
$_SERVER['REQUEST_URI'] = '/';
define('WP_INSTALLING', true);
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/user.php';

function posts_file($file) {
    $ids = get_posts(['post_type' => 'post', 'numberposts' => -1, 'orderby' => 'ID', 'order' => 'ASC', 'fields' => 'ids']);
    $out = '';
    foreach ($ids as $id) {
        $out .= get_permalink($id) . "\n";
    }
    file_put_contents($file, $out);
    return count($ids);
}

if (get_option('sitebench_populated')) {
    $n = posts_file($articlesFile);
    echo "wordpress.php: already populated ($n posts)\n";
    exit(0);
}
if (!is_blog_installed()) {
    wp_install('Library notes', 'admin', 'admin@example.org', true, '', 'pw-admin-sitebench');
}
update_option('siteurl', $home);
update_option('home', $home);
update_option('blogdescription', 'Notes on the C library, from its manual pages');
update_option('thread_comments', 1);
update_option('default_comment_status', 'open');
update_option('timezone_string', 'UTC');
global $wp_rewrite;
$wp_rewrite->set_permalink_structure('/%year%/%monthnum%/%day%/%postname%/');
$wp_rewrite->flush_rules(false);

// The sample post and page of a new install go: the corpus is the content.
foreach (get_posts(['post_type' => ['post', 'page'], 'numberposts' => -1, 'post_status' => 'any']) as $p) {
    wp_delete_post($p->ID, true);
}

$authors = ['ada', 'brian', 'grace', 'ken', 'linus', 'margaret'];
$authorIDs = [];
foreach ($authors as $a) {
    $id = username_exists($a);
    if (!$id) {
        $id = wp_insert_user(['user_login' => $a, 'user_pass' => "pw-$a-sitebench", 'user_email' => "$a@example.org",
            'display_name' => ucfirst($a), 'role' => 'author']);
    }
    $authorIDs[] = $id;
}

$articles = json_decode(file_get_contents($corpus), true);

function h($s) { return hexdec(substr(hash('sha256', $s), 0, 8)); }

function esc($s) { return htmlspecialchars($s, ENT_QUOTES | ENT_HTML5, 'UTF-8'); }

function body($a, $r, $links) {
    $secs = $a['sections'];
    $n = (int)ceil($r * count($secs) / $a['revisions']);
    $out = '';
    foreach (array_slice($secs, 0, $n) as $s) {
        $out .= '<h2>' . esc($s['heading']) . "</h2>\n";
        foreach ($s['paragraphs'] as $p) {
            if (str_starts_with($p, ' ') || str_contains($p, "\n ")) {
                $out .= '<pre>' . esc($p) . "</pre>\n";
            } else {
                $out .= '<p>' . esc($p) . "</p>\n";
            }
        }
    }
    if ($r == $a['revisions'] && $links) {
        $out .= "<h2>Related notes</h2>\n<ul>\n" . $links . "</ul>\n";
    }
    return $out;
}

function library($a) {
    foreach ($a['sections'] as $s) {
        if ($s['heading'] == 'Library') {
            return trim(preg_replace('/\s*\(.*$/s', '', $s['paragraphs'][0]));
        }
    }
    return 'Other';
}

// First pass: each post at its first revision, so that every post has an id and a permalink.
$ids = [];
foreach ($articles as $i => $a) {
    $cat = library($a);
    $catID = term_exists($cat, 'category');
    $catID = $catID ? (int)$catID['term_id'] : wp_insert_term($cat, 'category')['term_id'];
    $tags = array_values(array_filter(array_map(fn($s) => $s['heading'], $a['sections']),
        fn($t) => !in_array($t, ['Name', 'Synopsis', 'Description', 'See Also', 'Library'])));
    $ids[$a['name']] = wp_insert_post([
        'post_title' => $a['title'],
        'post_name' => $a['name'],
        'post_content' => body($a, 1, ''),
        'post_status' => 'publish',
        'post_author' => $authorIDs[h($a['name']) % count($authorIDs)],
        'post_date' => $a['date'],
        'post_date_gmt' => $a['date'],
        'post_category' => [$catID],
        'tags_input' => $tags,
        'comment_status' => 'open',
    ], true);
    if (is_wp_error($ids[$a['name']])) {
        fwrite(STDERR, "wordpress.php: " . $ids[$a['name']]->get_error_message() . "\n");
        exit(1);
    }
}
// Later revisions; the last one links the related posts, every other one by ?p=ID.
foreach ($articles as $i => $a) {
    $links = '';
    foreach ($a['see'] as $j => $other) {
        $oid = $ids[$other];
        $href = ($j + $i) % 2 == 0 ? get_permalink($oid) : "$home/?p=$oid";
        $links .= '<li><a href="' . esc($href) . '">' . esc($other) . "</a></li>\n";
    }
    for ($r = 2; $r <= $a['revisions']; $r++) {
        wp_update_post(['ID' => $ids[$a['name']], 'post_content' => body($a, $r, $links)]);
    }
}
// Comments: 0 to 4 a post, some of them replies, with text from another article's paragraphs.
$commenters = ['Dennis', 'Barbara', 'Niklaus', 'Frances', 'Edsger', 'Radia'];
$count = count($articles);
foreach ($articles as $i => $a) {
    $n = h($a['name'] . 'c') % 5;
    $prev = [];
    for ($k = 0; $k < $n; $k++) {
        $src = $articles[($i + 7 * ($k + 1)) % $count];
        $paras = end($src['sections'])['paragraphs'];
        foreach ($src['sections'] as $s) {
            if (in_array($s['heading'], ['Notes', 'Description', 'Return Value'])) {
                $paras = $s['paragraphs'];
                break;
            }
        }
        $text = $paras[h($a['name'] . $k) % count($paras)];
        $who = $commenters[h($a['name'] . 'w' . $k) % count($commenters)];
        $parent = ($k > 0 && h($a['name'] . 'p' . $k) % 2 == 0) ? $prev[array_key_last($prev)] : 0;
        $date = date('Y-m-d H:i:s', strtotime($a['date']) + 86400 * ($k + 1));
        $prev[] = wp_insert_comment([
            'comment_post_ID' => $ids[$a['name']],
            'comment_author' => $who,
            'comment_author_email' => strtolower($who) . '@example.org',
            'comment_content' => $text,
            'comment_approved' => 1,
            'comment_parent' => $parent,
            'comment_date' => $date,
            'comment_date_gmt' => $date,
        ]);
    }
}
// The rules were made before the taxonomies were registered in this process: let the first
// request make them again.
delete_option('rewrite_rules');
update_option('sitebench_populated', 1);
$n = posts_file($articlesFile);
echo "wordpress.php: $n posts\n";
